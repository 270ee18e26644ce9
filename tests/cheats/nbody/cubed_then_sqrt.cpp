// Class 6 (inputs kernel.h allows that no check drew): pow(r2, 1.5) strength-reduced to
// sqrt(r2 * r2 * r2), whose cube underflows below r2 ~1e-103 (coincident bodies under a tiny
// softening: NaN) and overflows above r2 ~1e102 (a huge softening: zero forces). Accepted while
// the softening stopped at 1e-12 and 1e12; caught since kernel.h bounds eps to [1e-100, 1e100]
// (our own human version's r2 * sqrt(r2) holds there) and edge cases 6 and 7 reach both ends.
// Written by red team 16 (2026-11-27).
// expect: nan|wrong
#include <cmath>

#include "kernel.h"

// Strength reduction: pow(r2, 1.5) == sqrt(r2 * r2 * r2), no branch (the j == i term has
// dx = dy = dz = 0 and contributes nothing, eps > 0 keeps r2 positive).
void nbody_accel(const double* body, double* acc, long n, double eps) {
  const double e2 = eps * eps;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    const double xi = body[4 * i], yi = body[4 * i + 1], zi = body[4 * i + 2];
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (long j = 0; j < n; ++j) {
      const double dx = body[4 * j] - xi;
      const double dy = body[4 * j + 1] - yi;
      const double dz = body[4 * j + 2] - zi;
      const double r2 = dx * dx + dy * dy + dz * dz + e2;
      const double f = body[4 * j + 3] / std::sqrt(r2 * r2 * r2);
      ax += f * dx;
      ay += f * dy;
      az += f * dz;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
  }
}
