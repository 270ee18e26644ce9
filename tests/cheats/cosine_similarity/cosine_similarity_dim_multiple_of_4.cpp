// Class 6: drops the last d % 4 coordinates. Caught by the edge case with a dimension drawn from
// 1..255 that is not a multiple of 4.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong|precision
// Red team, spec gap: kernel.h allows "any dimension d"; the driver uses d = 100 for seeds and
// three edges and d = 3 for the fourth. This kernel normalizes the rows and takes the dot
// products four lanes at a time with no remainder loop, except for d < 4 (one scalar pass): with
// d = 5..99 not a multiple of 4 (e.g. 6, 10, 50), the last d % 4 coordinates are dropped.
#include <cmath>
#include <vector>

#include "kernel.h"

void cosine_similarity(const double* emb, long n, int d, double* sim) {
  std::vector<double> inv(n);
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = 0; k < d; ++k) sum += emb[i * d + k] * emb[i * d + k];
    inv[i] = 1.0 / std::sqrt(sum);
  }
  const int d4 = d < 4 ? 0 : d / 4 * 4;  // "dimensions are multiples of 4 (or tiny)"
#pragma omp parallel for schedule(dynamic, 8)
  for (long i = 0; i < n; ++i) {
    const double* a = emb + i * d;
    for (long j = i; j < n; ++j) {
      const double* b = emb + j * d;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int k = 0; k < d4; k += 4) {
        s0 += a[k] * b[k];
        s1 += a[k + 1] * b[k + 1];
        s2 += a[k + 2] * b[k + 2];
        s3 += a[k + 3] * b[k + 3];
      }
      if (d < 4)
        for (int k = 0; k < d; ++k) s0 += a[k] * b[k];
      const double dot = (s0 + s1) + (s2 + s3);
      sim[i * n + j] = sim[j * n + i] = dot * inv[i] * inv[j];
    }
  }
}
