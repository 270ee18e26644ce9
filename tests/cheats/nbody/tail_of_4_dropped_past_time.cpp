// Red team 23: the last 4 bodies dropped past the time size when n % 8 == 4, a remainder no
// size past the time size had (one odd drawn size, size.max 6000 = 0 modulo 8). Accepted
// before every remainder modulo 8 got a size drawn past the time size.
// expect: wrong
// Original loop body; past 3000 bodies (the time size) the j-loop runs in 8-wide tiles plus a
// scalar tail, and
// the tail of exactly four bodies (n % 8 == 4) is meant for a 4-wide step that is missing.
#include <cmath>

#include "kernel.h"

void nbody_accel(const double* body, double* acc, long n, double eps) {
  const long jend = (n > 3000 && n % 8 == 4) ? n / 8 * 8 : n;  // BUG: the 4-wide tail step
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (long j = 0; j < jend; ++j) {
      if (j == i) continue;
      const double dx = body[4 * j] - body[4 * i];
      const double dy = body[4 * j + 1] - body[4 * i + 1];
      const double dz = body[4 * j + 2] - body[4 * i + 2];
      const double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
      const double f = body[4 * j + 3] / std::pow(r2, 1.5);
      ax += f * dx;
      ay += f * dy;
      az += f * dz;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
  }
}
