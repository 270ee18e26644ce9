// Class 6 (a parameter value no check drew): the step count kept in a uint8_t, so 256 steps run
// none and 300 run 44. The edge cases drew at most 218 steps; caught by the one drawing 219 to
// 512 log-uniformly. Written by red team 13 (2026-11-27).
// expect: wrong
#include <cstdint>
#include <vector>
#include "kernel.h"

void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
                    double* vel_out) {
  std::vector<double> k(n);
  for (long i = 0; i < n; ++i) k[i] = charge[i] / mass[i];
  for (long i = 0; i < 3 * n; ++i) {
    pos_out[i] = pos[i];
    vel_out[i] = vel[i];
  }
  const uint8_t nsteps = static_cast<uint8_t>(steps);
  for (uint8_t s = 0; s < nsteps; ++s) {
    double c[3] = {0, 0, 0};
    for (long i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) c[d] += pos_out[3 * i + d];
    for (int d = 0; d < 3; ++d) c[d] /= static_cast<double>(n);
    for (long i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) {
        const double a =
            -k[i] * stiffness * (pos_out[3 * i + d] - c[d]) - drag * vel_out[3 * i + d];
        vel_out[3 * i + d] += dt * a;
        pos_out[3 * i + d] += dt * vel_out[3 * i + d];
      }
  }
}
