#include <cmath>
#include <vector>

#include "kernel.h"

// Bodies are copied into separate x, y, z, m arrays (struct of arrays) so the inner loop over
// j is a unit-stride SIMD loop; pow(r2, 1.5) becomes r2 * sqrt(r2) and one division. The
// j == i term is not skipped: its displacement is zero, so (eps > 0) it adds exactly zero.
void nbody_accel(const double* body, double* acc, long n, double eps) {
  std::vector<double> px(n), py(n), pz(n), m(n);
  const double eps2 = eps * eps;
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (long j = 0; j < n; ++j) {
      px[j] = body[4 * j];
      py[j] = body[4 * j + 1];
      pz[j] = body[4 * j + 2];
      m[j] = body[4 * j + 3];
    }
#pragma omp for schedule(static)
    for (long i = 0; i < n; ++i) {
      const double xi = px[i], yi = py[i], zi = pz[i];
      double ax = 0.0, ay = 0.0, az = 0.0;
#pragma omp simd reduction(+ : ax, ay, az)
      for (long j = 0; j < n; ++j) {
        const double dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        const double f = m[j] / (r2 * std::sqrt(r2));
        ax += f * dx;
        ay += f * dy;
        az += f * dz;
      }
      acc[3 * i] = ax;
      acc[3 * i + 1] = ay;
      acc[3 * i + 2] = az;
    }
  }
}
