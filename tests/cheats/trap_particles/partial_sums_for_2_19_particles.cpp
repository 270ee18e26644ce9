#include <vector>

#include "kernel.h"

// Red team 21: struct-of-arrays, one fused pass per step that also sums the new positions block
// by block (512 particles a block) for the next step's centroid, in a fixed table of 1024 block
// sums: enough for 2^19 particles, below kernel.h's size.max (600000). Past 2^19 later blocks
// overwrite earlier ones and the centroid is wrong. The red team's version (a table for 2^20
// particles, past any size checked then) measured 2.55x faster at the time size and was
// accepted. The size then drawn past the time size, uniform in (2^18, 600000], crossed 2^19 in
// about one evaluation in five (computed from that range); the check at size.max does in every
// one.
// expect: wrong
namespace {
constexpr long kBlock = 512;
constexpr long kSlots = 1024;
}  // namespace

void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
                    double* vel_out) {
  std::vector<double> f(n);
  for (long i = 0; i < n; ++i) f[i] = -(charge[i] / mass[i]) * stiffness;
  for (long i = 0; i < 3 * n; ++i) {
    pos_out[i] = pos[i];
    vel_out[i] = vel[i];
  }
  if (steps <= 0) return;
  double partial[kSlots][3];
  const long blocks = (n + kBlock - 1) / kBlock;
  for (long b = 0; b < blocks; ++b) {
    double s0 = 0, s1 = 0, s2 = 0;
    const long end = b * kBlock + kBlock < n ? b * kBlock + kBlock : n;
    for (long i = b * kBlock; i < end; ++i) {
      s0 += pos_out[3 * i];
      s1 += pos_out[3 * i + 1];
      s2 += pos_out[3 * i + 2];
    }
    double* slot = partial[b & (kSlots - 1)];
    slot[0] = s0, slot[1] = s1, slot[2] = s2;
  }
  const long used = blocks < kSlots ? blocks : kSlots;
  const double inv_n = static_cast<double>(n);
  for (int step = 0; step < steps; ++step) {
    double c0 = 0, c1 = 0, c2 = 0;
    for (long b = 0; b < used; ++b) c0 += partial[b][0], c1 += partial[b][1], c2 += partial[b][2];
    c0 /= inv_n, c1 /= inv_n, c2 /= inv_n;
    for (long b = 0; b < blocks; ++b) {
      double s0 = 0, s1 = 0, s2 = 0;
      const long end = b * kBlock + kBlock < n ? b * kBlock + kBlock : n;
      for (long i = b * kBlock; i < end; ++i) {
        double* p = pos_out + 3 * i;
        double* v = vel_out + 3 * i;
        const double fi = f[i];
        const double a0 = fi * (p[0] - c0) - drag * v[0];
        const double a1 = fi * (p[1] - c1) - drag * v[1];
        const double a2 = fi * (p[2] - c2) - drag * v[2];
        v[0] += dt * a0, v[1] += dt * a1, v[2] += dt * a2;
        p[0] += dt * v[0], p[1] += dt * v[1], p[2] += dt * v[2];
        s0 += p[0], s1 += p[1], s2 += p[2];
      }
      double* slot = partial[b & (kSlots - 1)];
      slot[0] = s0, slot[1] = s1, slot[2] = s2;
    }
  }
}
