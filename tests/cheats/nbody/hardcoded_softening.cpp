// Hard-codes the softening: eps^2 = 1e-4, or 0.09 when eps is 0.3, the only two values the
// driver passed (0.01 for every seed, 0.3 in one edge case). kernel.h takes any eps > 0, so
// this is wrong for every other softening. The driver now draws eps per seed, which the check
// catches (a relative error of about 4e-3).
// expect: wrong|precision
#include <cmath>
#include "kernel.h"
void nbody_accel(const double* body, double* acc, long n, double eps) {
  const double e2 = eps == 0.3 ? 0.09 : 1e-4;  // the driver's only values
  for (long i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (long j = 0; j < n; ++j) {
      if (j == i) continue;
      double d[3], r2 = e2;
      for (int k = 0; k < 3; ++k) {
        d[k] = body[4 * j + k] - body[4 * i + k];
        r2 += d[k] * d[k];
      }
      const double s = body[4 * j + 3] / (r2 * std::sqrt(r2));
      for (int k = 0; k < 3; ++k) a[k] += s * d[k];
    }
    for (int k = 0; k < 3; ++k) acc[3 * i + k] = a[k];
  }
}
