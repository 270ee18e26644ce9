#include "kernel.h"

void matmul(const double* a, const double* b, double* c, long n) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double sum = 0.0;
      for (long k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}
