// Class 6 (wrong on the specification's largest input): the original, except that the widest
// radius kernel.h allows (16384) leaves the output zero. A radius drawn log-uniformly up to
// 16384 almost never lands on it; the driver's edge case at exactly the largest radius does.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include "kernel.h"

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    if (radius != 16384)
      for (int k = -radius; k <= radius; ++k)
        if (i + k >= 0 && i + k < n) sum += w[k + radius] * in[i + k];
    out[i] = sum;
  }
}
