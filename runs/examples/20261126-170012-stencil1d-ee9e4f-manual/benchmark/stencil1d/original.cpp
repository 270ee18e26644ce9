#include "kernel.h"

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = -radius; k <= radius; ++k) {
      const long j = i + k;
      if (j >= 0 && j < n) sum += w[k + radius] * in[j];
    }
    out[i] = sum;
  }
}
