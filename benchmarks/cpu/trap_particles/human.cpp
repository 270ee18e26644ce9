#include <vector>

#include "kernel.h"

// Struct of arrays holding only what the time loop touches: one contiguous array per
// coordinate, and the trap strength per particle computed once. The step loop streams seven
// arrays with unit stride and vectorizes.
void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
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
    pull[i] = -(charge[i] / mass[i]) * stiffness;
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
        const double a = k[i] * (pd[i] - c) - drag * vd[i];
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
