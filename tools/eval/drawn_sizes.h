// The sizes an evaluation checks: the manifest's fixed list, and sizes drawn from the
// evaluation's seed, so that a kernel cannot be right only at the sizes it can read in the
// manifest.
#pragma once

#include <cstdint>
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

}  // namespace kopt
