// The sizes an evaluation checks: the manifest's fixed list, and sizes drawn from the
// evaluation's seed, so that a kernel cannot be right only at the sizes it can read in the
// manifest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "tools/benchmark/benchmark.h"

namespace kopt {

/// How many sizes each evaluation draws: one of each remainder modulo 8, so a kernel wrong
/// only for some length of a vector loop's tail (a remainder modulo 2, 4 or 8) always fails
/// somewhere, and one wrong at a remainder modulo 16 or 32 fails in half or a quarter of the
/// evaluations.
inline constexpr int kDrawnSizes = 8;

/// The manifest's check sizes followed by up to kDrawnSizes more, drawn from `seed`
/// log-uniformly between 2 and the largest check size (no costlier than the list itself),
/// leaving out sizes already listed and any the benchmark's named sizes refuse. Only the
/// manifest's list when it says "draw": false.
std::vector<long> sizes_to_check(const Benchmark& bench, uint64_t seed);

/// No drawn size is more than this many times the time size.
inline constexpr long kLargestDrawnMultiple = 16;

/// The largest n in [lo, hi] for which `holds` (true at lo, false from some n on) is true, by
/// bisection.
long largest_size_where(long lo, long hi, const std::function<bool(long)>& holds);

/// A size past the largest check size, and how many of the evaluation's seeds it is checked
/// with (its calls cost up to a few timed calls, so not every seed; check_plans.cpp says what
/// else runs there).
struct LargeSize {
  long size = 0;
  size_t seeds = 1;
  /// Drawn between the time size and the largest: the edge cases, a second call on the same
  /// buffers and the other thread counts are shared out among these (check_plans.h).
  bool past_time = false;
};

/// The largest n kopt vouches for: past the smallest power of two above the time size by half
/// the time size, or the size of four times the time size's work (the manifest's flops and
/// bytes), whichever is larger, and never past the manifest's size.max (which kernel.h states;
/// the suite's are at or below that reach). The largest such n the benchmark's sizes allow.
long largest_checked_size(const Benchmark& bench);

/// Sizes past the manifest's largest check size, where a kernel may take another path than at
/// the small sizes (blocked, threaded, with narrower indices): kDrawnSizes drawn from `seed`
/// between that size and the time size, log-uniformly, one of each remainder modulo 8 (the
/// first with two seeds, the others with one); between the time size and largest_checked_size
/// kDrawnSizes more the same way (past_time, in increasing order); and largest_checked_size
/// (one seed), so that a limit anywhere between the time size and the end of kernel.h's domain
/// is crossed.
std::vector<LargeSize> large_sizes_to_check(const Benchmark& bench, uint64_t seed);

}  // namespace kopt
