// The timing's decoys: blocks run among its timed pairs, filled with the driver's edge cases
// instead of seeds, checked and never timed (DESIGN.md, "Decoys").
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "tools/eval/driver_session.h"
#include "util/entropy.h"

namespace kopt {

// Blocks the timing runs among its timed pairs, filled with the driver's edge cases instead of
// seeds, checked and never timed. The check runs every edge case at the time size too, but in
// blocks of its own, so a kernel could tell its timed calls apart by where it runs (a block of
// one call at the same pointers each time, the first call of its process, a late process) and
// skip there what only hard inputs need: red team 26's small_solves skipped the pivot search in
// the first call of a process at the time size and was accepted 2.4x faster. A decoy is a timed
// block in everything the kernel can see but its inputs: the same layout and placement, the
// place in the alternation of the sides, among the timed pairs at drawn rounds (one in kOneIn)
// and after the last look, where the kernel cannot know the timing has ended. In decoy d position j
// holds edge case (d + j + shift) % edges: once `edges` have run, every edge case has run at every
// position of the timed blocks.
class Decoys {
 public:
  static constexpr int kOneIn = 8;

  // Drawn from the operating system's generator, as the timed seeds are: the timing seed is
  // the warm-up call's, which a kernel sees, and a schedule drawn from it could be foretold.
  Decoys(int edges, int calls) : Decoys(edges, calls, unpredictable_u64()) {}
  /// With a given draw: for tests.
  Decoys(int edges, int calls, uint64_t draw)
      : edges_(std::max(0, edges)), calls_(calls), rng_(draw) {
    shift_ = edges_ > 0 ? static_cast<int>(rng_() % static_cast<uint64_t>(edges_)) : 0;
  }
  /// Whether a decoy runs before this round's pair.
  bool due() { return edges_ > 0 && rng_() % kOneIn == 0; }
  /// Whether every edge case has run at every position.
  bool covered() const { return run_ >= edges_; }
  std::vector<DriverInput> next(const std::vector<uint64_t>& seeds) {
    std::vector<DriverInput> inputs;
    for (int j = 0; j < calls_; ++j)
      inputs.push_back({seeds[static_cast<size_t>(j)], (run_ + j + shift_) % edges_, std::nullopt});
    ++run_;
    return inputs;
  }

 private:
  int edges_, calls_, shift_ = 0, run_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace kopt
