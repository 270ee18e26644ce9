#include <cmath>
#include <vector>

#include "kernel.h"

namespace {

// Without -ffast-math the compiler must add the products in order, one dependent addition at a
// time. Eight explicit partial sums are independent lanes it can keep in a vector register.
double dot(const double* a, const double* b, int d) {
  double partial[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int k = 0;
  for (; k + 8 <= d; k += 8)
    for (int lane = 0; lane < 8; ++lane) partial[lane] += a[k + lane] * b[k + lane];
  double sum = ((partial[0] + partial[4]) + (partial[1] + partial[5])) +
               ((partial[2] + partial[6]) + (partial[3] + partial[7]));
  for (; k < d; ++k) sum += a[k] * b[k];
  return sum;
}

}  // namespace

void cosine_similarity(const double* emb, long n, int d, double* sim) {
  std::vector<double> norm(n);
  for (long i = 0; i < n; ++i) norm[i] = std::sqrt(dot(emb + i * d, emb + i * d, d));
  for (long i = 0; i < n; ++i) {
    for (long j = i; j < n; ++j) {
      sim[i * n + j] = sim[j * n + i] = dot(emb + i * d, emb + j * d, d) / (norm[i] * norm[j]);
    }
  }
}
