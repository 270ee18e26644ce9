// What the check of a CPU benchmark runs, size by size (SizePlan): the sizes the evaluation's
// seed draws beside the manifest's, the edge cases at the time size, the large sizes, and the
// re-checks of an OpenMP kernel at other thread counts.
#pragma once

#include <cstdint>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/check.h"

namespace kopt {

/// The sizes checked first: the manifest's and those drawn below its largest, every seed and
/// edge case in one block per side, and one more problem called twice on the same buffers;
/// `untimed`, the time size too (once per seed), since timed calls are checked and untimed ones
/// must be as well.
std::vector<SizePlan> check_plans(const Benchmark& bench, uint64_t seed, bool untimed);

/// What is checked once `checked` passed: the edge cases at the time size when it was not
/// among them (the timed calls get seeds only), in blocks of two calls; then the sizes drawn
/// past the largest check size, their few seeds in one block, the smallest of them with every
/// edge case too, the others below the time size each with a share of the edge cases (every
/// edge case at one of them); past the time size the same: every edge case at one of the
/// drawn sizes there (which one drawn from `seed`), the smallest of them also calling one
/// problem twice; the largest size (largest_checked_size) with its seed and every edge case.
std::vector<SizePlan> later_plans(const Benchmark& bench, uint64_t seed,
                                  const std::vector<SizePlan>& checked);

/// What an OpenMP kernel is checked again with at the `count`-th of recheck_thread_counts:
/// the manifest's check sizes with one seed and every edge case (one block per size), the
/// largest size drawn below the time size and the time size itself with one seed each (a
/// kernel whose threads share a fixed table only at the time size was right at the machine's
/// count alone), and one size drawn past the time size with one seed (another size for each
/// count), with every edge case at the drawn count (kDrawnRecheck).
std::vector<SizePlan> thread_recheck_plans(const Benchmark& bench, uint64_t seed, int count);

/// The index of the drawn count among recheck_thread_counts.
inline constexpr int kDrawnRecheck = 1;

/// The most OpenMP threads a kernel must be right with on any machine of up to 63 cores
/// (README: "How a candidate is judged").
inline constexpr int kMostThreads = 256;

/// The thread counts of those re-checks on a machine timed with `machine` threads: 1, a count
/// drawn from `seed` past the machine's and below the last (half the time one of the core
/// counts common machines have, else any), and the power of two at or above both kMostThreads
/// and four times as many and four more: 1, a count from 3 to 255 and 256 on two cores. With
/// only odd counts beside the machine's, a scan wrong whenever the count was a multiple of 4
/// passed (red team 12); with 12, one wrong at powers of two from 4 up (red team 14); with 16,
/// one whose table held 16 threads (red team 17); with 7, one whose table held 8 (red team 26);
/// with a count drawn from 7, one wrong from 3 to 6 threads (red team 27). No finite set of
/// counts holds a kernel to all of them; a drawn one holds it to any, in some evaluations.
std::vector<int> recheck_thread_counts(int machine, uint64_t seed);

}  // namespace kopt
