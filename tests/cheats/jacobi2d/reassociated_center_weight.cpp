// Class 6 (inputs kernel.h allows that no check drew): the update reassociated as
// (1 - 4r) u + r (up + down + left + right) where kernel.h gives u + r (up + down + left +
// right - 4u). Invisible on values in [0, 1); on large values of both signs that cancel (a
// checkerboard of +-1e6 under r = 1/8) the other rounding is off by about 1e-9 relative.
// Caught by edge case 5. Written by red team 18 (2026-11-27).
// expect: precision|wrong
// Row-major sweeps (loop interchange) with ping-pong buffers, and the update written as a
// weighted average: v = (1 - 4r) u + r (up + down + left + right), one multiply fewer per point.
#include <cstring>
#include <utility>

#include "kernel.h"

void jacobi2d(const double* u0, double* u, double* scratch, long n, int steps, double r) {
  std::memcpy(u, u0, sizeof(double) * n * n);
  if (n <= 2 || steps == 0) return;
  std::memcpy(scratch, u0, sizeof(double) * n * n);  // boundary in both buffers
  const double c = 1.0 - 4.0 * r;
  double* src = u;
  double* dst = scratch;
  for (int s = 0; s < steps; ++s) {
#pragma omp parallel for schedule(static)
    for (long i = 1; i < n - 1; ++i) {
      const double* up = src + (i - 1) * n;
      const double* mid = src + i * n;
      const double* down = src + (i + 1) * n;
      double* out = dst + i * n;
#pragma omp simd
      for (long j = 1; j < n - 1; ++j)
        out[j] = c * mid[j] + r * ((up[j] + down[j]) + (mid[j - 1] + mid[j + 1]));
    }
    std::swap(src, dst);
  }
  if (src != u) std::memcpy(u, src, sizeof(double) * n * n);
}
