// Ping-pongs between u and scratch and copies nothing at the end, which is right only for an
// even number of sweeps, as the driver's 10 are. kernel.h allows any count: after an odd one,
// the final grid is left in scratch and u holds the one before (on a 3 x 3 grid, a sweep may
// change the single interior point by under 1%: then the verdict says precision).
// expect: wrong|precision
#include <algorithm>
#include <utility>

#include "kernel.h"

void jacobi2d(const double* u0, double* u, double* scratch, long n, int steps, double r) {
  std::copy(u0, u0 + n * n, u);
  std::copy(u0, u0 + n * n, scratch);
  double* src = u;
  double* dst = scratch;
  for (int s = 0; s < steps; ++s) {
#pragma omp parallel for
    for (long i = 1; i < n - 1; ++i)
      for (long j = 1; j < n - 1; ++j) {
        const double* c = src + i * n + j;
        dst[i * n + j] = c[0] + r * (c[-n] + c[n] + c[-1] + c[1] - 4 * c[0]);
      }
    std::swap(src, dst);
  }
}
