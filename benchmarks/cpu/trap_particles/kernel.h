// Advances n charged particles `steps` explicit Euler steps in a harmonic trap centred on their
// own centroid, with linear drag. pos and vel hold x, y, z per particle. Each step, with c the
// mean position at the start of the step:
//   a = -(charge/mass) * stiffness * (p - c) - drag * v;  v += dt * a;  p += dt * v
// Writes the final positions and velocities to pos_out and vel_out.
#pragma once

// 1 <= n <= 600000 (size.max), 0 <= steps <= 512 (0 copies the inputs; above 219 steps,
// n * steps <= 2^21), masses positive, charges of any sign or 0.
void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
                    double* vel_out);
