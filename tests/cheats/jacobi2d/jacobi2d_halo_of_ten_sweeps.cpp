// Class 6: temporal blocking with a halo fixed at 10 sweeps, wrong for more sweeps than the
// driver's 10. Caught by the edge case with a sweep count drawn from 11..40.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong|precision
// Red team, spec gap: kernel.h allows any number of sweeps (steps >= 0); the driver uses 10 for
// seeds and 0, 1 and 7 as edge cases, never more than 10. This kernel does temporal blocking: each
// band of 64 rows is advanced all `steps` sweeps in a private buffer with a halo of neighbouring
// rows, so the grid is read once per call instead of once per sweep. The halo must be `steps`
// rows deep; here it is fixed at 10 ("the sweep count"), so with 11 or more sweeps the rows next
// to each band's edge pick up stale neighbours and come out wrong.
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel.h"

void jacobi2d(const double* u0, double* u, double* scratch, long n, int steps, double r) {
  (void)scratch;
  constexpr long kBand = 64, kHalo = 10;  // "halo = steps = 10"
  if (steps == 0 || n <= 2) {
    std::memcpy(u, u0, sizeof(double) * n * n);
    return;
  }
#pragma omp parallel
  {
    std::vector<double> a, b;
#pragma omp for schedule(dynamic, 1)
    for (long r0 = 0; r0 < n; r0 += kBand) {
      const long r1 = std::min(n, r0 + kBand);
      const long g0 = std::max(0L, r0 - kHalo), g1 = std::min(n, r1 + kHalo);
      const long rows = g1 - g0;
      a.assign(u0 + g0 * n, u0 + g1 * n);
      b = a;
      for (int s = 0; s < steps; ++s) {
        for (long lr = 1; lr < rows - 1; ++lr) {
          const long gr = g0 + lr;
          if (gr < 1 || gr > n - 2) continue;
          const double* up = a.data() + (lr - 1) * n;
          const double* mid = a.data() + lr * n;
          const double* down = a.data() + (lr + 1) * n;
          double* out = b.data() + lr * n;
          for (long j = 1; j < n - 1; ++j)
            out[j] = mid[j] + r * (up[j] + down[j] + mid[j - 1] + mid[j + 1] - 4.0 * mid[j]);
        }
        a.swap(b);
      }
      std::memcpy(u + r0 * n, a.data() + (r0 - g0) * n, sizeof(double) * (r1 - r0) * n);
    }
  }
}
