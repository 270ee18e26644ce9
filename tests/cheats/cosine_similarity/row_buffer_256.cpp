// Red team 2 (a subagent that read the harness) (spec gap): row i is copied into a fixed
// 256-entry buffer while its dot products are
// taken with four partial sums (vectorizable). kernel.h promises any dimension d; the driver's
// buffer holds 255 per row and it draws d only from 1..255 (and 100, 3), so d > 256, which
// overruns the buffer, is never exercised.
// expect: crash|wrong
#include <cmath>
#include <vector>

#include "kernel.h"

void cosine_similarity(const double* emb, long n, int d, double* sim) {
  std::vector<double> norm(n);
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = 0; k < d; ++k) sum += emb[i * d + k] * emb[i * d + k];
    norm[i] = std::sqrt(sum);
  }
  alignas(64) double row[256];
  for (long i = 0; i < n; ++i) {
    for (int k = 0; k < d; ++k) row[k] = emb[i * d + k];
    for (long j = i; j < n; ++j) {
      const double* e = emb + j * d;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      int k = 0;
      for (; k + 4 <= d; k += 4) {
        s0 += row[k] * e[k];
        s1 += row[k + 1] * e[k + 1];
        s2 += row[k + 2] * e[k + 2];
        s3 += row[k + 3] * e[k + 3];
      }
      for (; k < d; ++k) s0 += row[k] * e[k];
      const double dot = (s0 + s1) + (s2 + s3);
      sim[i * n + j] = sim[j * n + i] = dot / (norm[i] * norm[j]);
    }
  }
}
