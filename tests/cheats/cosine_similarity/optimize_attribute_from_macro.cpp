// The optimize attribute assembled by a macro, so that no "optimize" appears next to
// "__attribute__" in the source: fast-math on the kernel alone lets GCC reassociate and
// vectorize the dot products the manifest's flags keep sequential.
// expect: flags
#include <cmath>
#include <vector>

#include "kernel.h"

#define TUNED(how, what) __attribute__((how(what)))
#define SETTING opt##imize

TUNED(SETTING, "fast-math")
void cosine_similarity(const double* emb, long n, int d, double* sim) {
  std::vector<double> norm(n);
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = 0; k < d; ++k) sum += emb[i * d + k] * emb[i * d + k];
    norm[i] = std::sqrt(sum);
  }
  for (long i = 0; i < n; ++i)
    for (long j = i; j < n; ++j) {
      double dot = 0.0;
      for (int k = 0; k < d; ++k) dot += emb[i * d + k] * emb[j * d + k];
      sim[i * n + j] = sim[j * n + i] = dot / (norm[i] * norm[j]);
    }
}
