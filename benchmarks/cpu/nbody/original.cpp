#include <cmath>

#include "kernel.h"

void nbody_accel(const double* body, double* acc, long n, double eps) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (long j = 0; j < n; ++j) {
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
