// Class 6 (memory before the array): from the time size on, loads a whole body before body[0]
// and blends it out. Blocks at the time size held 1 or 2 problems, so the first array never
// started after a guard page there; caught since those blocks hold 3 (each array meets every
// placement of arrays.h). Written by red team 15 (2026-11-27).
// expect: crash
#include <cmath>
#include <cstring>

#include "kernel.h"

// Large-n path: the j loop is padded at the FRONT to a multiple of 4 bodies so that the inner
// loop has no remainder; the pad bodies (j < 0) are loaded whole (they lie before body[0]) and
// blended out: position replaced by p_i, mass by 0, so they add exactly nothing.
void nbody_accel(const double* body, double* acc, long n, double eps) {
  const long pad = n >= 3000 ? 1 : 0;  // one body of pipeline warm-up
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    const double xi = body[4 * i], yi = body[4 * i + 1], zi = body[4 * i + 2];
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (long j = -pad; j < n; ++j) {
      double bj[4];
      std::memcpy(bj, body + 4 * j, sizeof bj);  // j < 0: the pad, read and then discarded
      const bool real = j >= 0 && j != i;
      const double dx = real ? bj[0] - xi : 0.0;
      const double dy = real ? bj[1] - yi : 0.0;
      const double dz = real ? bj[2] - zi : 0.0;
      const double m = real ? bj[3] : 0.0;
      const double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
      const double f = m / std::pow(r2, 1.5);
      ax += f * dx;
      ay += f * dy;
      az += f * dz;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
  }
}
