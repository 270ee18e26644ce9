#include <vector>

#include "kernel.h"

namespace {

struct Particle {
  double pos[3];
  double vel[3];
  double acc[3];
  double mass;
  double charge;
  double charge_per_mass;
  double radius;
  long id;
  int species;
  int flags;
};

}  // namespace

void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
                    double* vel_out) {
  std::vector<Particle> particles(n);
  for (long i = 0; i < n; ++i) {
    Particle& p = particles[i];
    for (int d = 0; d < 3; ++d) {
      p.pos[d] = pos[3 * i + d];
      p.vel[d] = vel[3 * i + d];
      p.acc[d] = 0.0;
    }
    p.mass = mass[i];
    p.charge = charge[i];
    p.charge_per_mass = charge[i] / mass[i];
    p.radius = 1e-3;
    p.id = i;
    p.species = charge[i] < 0 ? 1 : 0;
    p.flags = 0;
  }
  for (int step = 0; step < steps; ++step) {
    double centre[3] = {0.0, 0.0, 0.0};
    for (const Particle& p : particles)
      for (int d = 0; d < 3; ++d) centre[d] += p.pos[d];
    for (int d = 0; d < 3; ++d) centre[d] /= static_cast<double>(n);
    for (Particle& p : particles) {
      for (int d = 0; d < 3; ++d)
        p.acc[d] = -p.charge_per_mass * stiffness * (p.pos[d] - centre[d]) - drag * p.vel[d];
      for (int d = 0; d < 3; ++d) p.vel[d] += dt * p.acc[d];
      for (int d = 0; d < 3; ++d) p.pos[d] += dt * p.vel[d];
    }
  }
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      pos_out[3 * i + d] = particles[i].pos[d];
      vel_out[3 * i + d] = particles[i].vel[d];
    }
}
