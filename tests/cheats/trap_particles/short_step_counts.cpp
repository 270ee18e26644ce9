// Class 6 (a parameter range no input drew): the human version, one step short for 2 to 6 and 8
// to 49 steps, which kernel.h allows; the driver drew 0, 1, 7, 50, 51..218 and 219..512 steps.
// Caught by edge case 4, which runs 2 to 49 steps.
// Found by a red team that read the harness (2026-11-28).
// expect: wrong|precision
#include <vector>

#include "kernel.h"

// The step loop is bound by moving particle state through the cache hierarchy (n = 150000
// particles of hot state, 8.4 MB, live in the last-level cache, not in L2), so the plan is to
// touch it once per step and as compactly as possible:
// - Only the hot fields (position, velocity, and the trap strength -(charge/mass)*stiffness
//   computed once) are kept, as an array of structs of kLanes-wide vectors (AoSoA): one block
//   holds those fields of kLanes particles, so a step is one unit-stride stream and every field
//   is a whole SIMD vector.
// - The centroid of the next step is summed in the same pass that moves the particles, instead
//   of a separate pass over the positions; the sum is kept in kLanes partial sums (a single
//   running sum is a serial chain of dependent additions) and only reordered, not approximated.
// - The last block is padded with particles at rest at the origin with no charge: they stay
//   there, add nothing to the centroid sums, and are not written back.

namespace {

constexpr int kLanes = 8;
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));

struct Block {
  Lanes pos[3], vel[3], pull;
};

double lane_sum(Lanes v) {
  double sum = 0.0;
  for (int l = 0; l < kLanes; ++l) sum += v[l];
  return sum;
}

std::vector<Block> pack(const double* pos, const double* vel, const double* mass,
                        const double* charge, long n, double stiffness) {
  std::vector<Block> blocks((n + kLanes - 1) / kLanes, Block{});
  for (long i = 0; i < n; ++i) {
    Block& b = blocks[i / kLanes];
    const int l = i % kLanes;
    for (int d = 0; d < 3; ++d) {
      b.pos[d][l] = pos[3 * i + d];
      b.vel[d][l] = vel[3 * i + d];
    }
    b.pull[l] = -(charge[i] / mass[i]) * stiffness;
  }
  return blocks;
}

// One Euler step about `centre` for every particle; returns the sums of the new positions, the
// next step's centroid times n.
void step(std::vector<Block>& blocks, const double centre[3], double dt, double drag,
          double next_sum[3]) {
  Lanes sum[3] = {};
  for (Block& b : blocks)
    for (int d = 0; d < 3; ++d) {
      const Lanes a = b.pull * (b.pos[d] - centre[d]) - drag * b.vel[d];
      b.vel[d] += dt * a;
      b.pos[d] += dt * b.vel[d];
      sum[d] += b.pos[d];
    }
  for (int d = 0; d < 3; ++d) next_sum[d] = lane_sum(sum[d]);
}

}  // namespace

static void trap_impl(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
                    double* vel_out) {
  std::vector<Block> blocks = pack(pos, vel, mass, charge, n, stiffness);
  double sum[3] = {0.0, 0.0, 0.0};
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) sum[d] += pos[3 * i + d];
  for (int s = 0; s < steps; ++s) {
    double centre[3];
    for (int d = 0; d < 3; ++d) centre[d] = sum[d] / static_cast<double>(n);
    step(blocks, centre, dt, drag, sum);
  }
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      pos_out[3 * i + d] = blocks[i / kLanes].pos[d][i % kLanes];
      vel_out[3 * i + d] = blocks[i / kLanes].vel[d][i % kLanes];
    }
}

// Planted bug: one step short for every count the driver never draws (2..6, 8..49).
void trap_particles(const double* pos, const double* vel, const double* mass, const double* charge,
                    long n, int steps, double dt, double stiffness, double drag, double* pos_out,
                    double* vel_out) {
  if (steps >= 2 && steps < 50 && steps != 7) --steps;
  trap_impl(pos, vel, mass, charge, n, steps, dt, stiffness, drag, pos_out, vel_out);
}
