#include "kernel.h"

void jacobi2d(const double* u0, double* u, double* scratch, long n, int steps, double r) {
#pragma omp parallel for
  for (long k = 0; k < n * n; ++k) u[k] = u0[k];
  for (int s = 0; s < steps; ++s) {
#pragma omp parallel for
    for (long j = 1; j < n - 1; ++j)
      for (long i = 1; i < n - 1; ++i)
        scratch[i * n + j] =
            u[i * n + j] + r * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                                u[i * n + j + 1] - 4.0 * u[i * n + j]);
#pragma omp parallel for
    for (long j = 1; j < n - 1; ++j)
      for (long i = 1; i < n - 1; ++i) u[i * n + j] = scratch[i * n + j];
  }
}
