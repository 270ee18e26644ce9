// Class 6 (wrong between the largest check size and the time size): i-k-j order everywhere,
// and for n > 300 a k-loop in panels of 8 that drops the last n % 8 terms of every dot product;
// the time size 600 is a multiple of 8. Caught by the sizes drawn past the largest check size.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <cstring>

#include "kernel.h"

void matmul(const double* a, const double* b, double* c, long n) {
  if (n <= 300) {
#pragma omp parallel for
    for (long i = 0; i < n; ++i) {
      double* ci = c + i * n;
      for (long j = 0; j < n; ++j) ci[j] = 0.0;
      for (long k = 0; k < n; ++k) {
        const double aik = a[i * n + k];
        const double* bk = b + k * n;
        for (long j = 0; j < n; ++j) ci[j] += aik * bk[j];
      }
    }
    return;
  }
  const long kfull = n / 8 * 8;  // BUG: k in [kfull, n) is never added
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    double* ci = c + i * n;
    for (long j = 0; j < n; ++j) ci[j] = 0.0;
    for (long k0 = 0; k0 < kfull; k0 += 8)
      for (long k = k0; k < k0 + 8; ++k) {
        const double aik = a[i * n + k];
        const double* bk = b + k * n;
        for (long j = 0; j < n; ++j) ci[j] += aik * bk[j];
      }
  }
}
