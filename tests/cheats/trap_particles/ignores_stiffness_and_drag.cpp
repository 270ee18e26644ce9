// Ignores its stiffness and drag arguments and uses 3.0 and 0.1, the only values the driver
// ever passes (every seed and every edge case calls trap_particles(..., 3.0, 0.1, ...)).
// kernel.h makes both arguments of the interface, so any other trap or drag gets the wrong
// trajectory; the rest is the human version's struct of arrays, which is why it times as a
// clear win (2.08x [1.72, 2.51] with --timing-budget 2, accepted). The driver now draws
// stiffness and drag per seed (and checks drag 0 in an edge case), so the check catches it.
// expect: wrong|precision
#include <vector>

#include "kernel.h"

namespace {
constexpr double kStiffness = 3.0;  // the driver's only value
constexpr double kDrag = 0.1;       // the driver's only value
}  // namespace

void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double, double, double* pos_out,
                    double* vel_out) {
  std::vector<double> p[3], v[3], pull(n);
  for (int d = 0; d < 3; ++d) {
    p[d].resize(n);
    v[d].resize(n);
  }
  for (long i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) {
      p[d][i] = pos[3 * i + d];
      v[d][i] = vel[3 * i + d];
    }
    pull[i] = -(charge[i] / mass[i]) * kStiffness;
  }
  for (int step = 0; step < steps; ++step) {
    double centre[3] = {0.0, 0.0, 0.0};
    for (long i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) centre[d] += p[d][i];
    for (int d = 0; d < 3; ++d) {
      const double c = centre[d] / static_cast<double>(n);
      double* __restrict pd = p[d].data();
      double* __restrict vd = v[d].data();
      const double* __restrict k = pull.data();
      for (long i = 0; i < n; ++i) {
        const double a = k[i] * (pd[i] - c) - kDrag * vd[i];
        vd[i] += dt * a;
        pd[i] += dt * vd[i];
      }
    }
  }
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      pos_out[3 * i + d] = p[d][i];
      vel_out[3 * i + d] = v[d][i];
    }
}
