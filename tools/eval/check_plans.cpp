#include "tools/eval/check_plans.h"

#include <algorithm>

#include "tools/eval/drawn_sizes.h"

namespace kopt {

namespace {

bool has_size(const std::vector<SizePlan>& plans, long size) {
  return std::any_of(plans.begin(), plans.end(), [&](const SizePlan& p) { return p.size == size; });
}

// The largest size drawn below the time size (where a kernel's threads split most), 0 if none.
long widest_below_time(const std::vector<LargeSize>& large, long time_size) {
  long widest = 0;
  for (const LargeSize& l : large)
    if (l.size < time_size) widest = std::max(widest, l.size);
  return widest;
}

}  // namespace

std::vector<SizePlan> check_plans(const Benchmark& bench, uint64_t seed, bool untimed) {
  std::vector<SizePlan> plans;
  for (long n : sizes_to_check(bench, seed)) plans.push_back({n, SIZE_MAX, true, SIZE_MAX, true});
  if (untimed && !has_size(plans, bench.time_size))
    plans.push_back({bench.time_size, SIZE_MAX, true, 3, true});
  return plans;
}

std::vector<SizePlan> later_plans(const Benchmark& bench, uint64_t seed,
                                  const std::vector<SizePlan>& checked) {
  std::vector<SizePlan> plans;
  // Blocks of three problems: each array of a problem meets all three placements (arrays.h)
  // in every block, as it does in the check sizes' larger blocks (red team 15: a kernel that
  // read before its first array only from the time size on met no guard page there).
  if (!has_size(checked, bench.time_size)) plans.push_back({bench.time_size, 0, true, 3, true});
  // The first drawn past the check sizes (the smallest, the cheapest) also with every edge
  // case: a kernel's large path must take the hard inputs too (a tap table of 201 used only
  // for n > 4099 passed while no edge case ran there). It and the widest below the time size
  // also call one problem twice on its buffers: a result kept for its pointers only past the
  // check sizes passed while only those did (red team 13).
  // The others below the time size share the edge cases out, each edge case at one of them:
  // a kernel's path for some sizes past the check sizes must take the hard inputs too, and
  // parameters a driver holds in proportion to the size (a stencil's radius) meet sizes
  // between the check sizes and the time size (red team 17: a tap table of 255 used only past
  // 2^19 passed while no edge case ran between 4099 and the time size).
  const std::vector<LargeSize> large = large_sizes_to_check(bench, seed);
  const long widest = widest_below_time(large, bench.time_size);
  int sharing = -1;  // How many share the edge cases: those below the time size but the first.
  for (const LargeSize& l : large) sharing += l.size < bench.time_size;
  int index = -1;
  for (const LargeSize& l : large) {
    const bool below = l.size < bench.time_size, first = index < 0;
    SizePlan plan{l.size, l.seeds, below || l.past_time, 3, below && (first || l.size == widest)};
    if (below && !first) plan.edge_stride = sharing, plan.edge_offset = index;
    // Past the time size a third of the edge cases, another third each evaluation: every edge
    // case there in all of them would cost a check half again.
    if (l.past_time) plan.edge_stride = kPastTimeEdgeShare, plan.edge_offset = l.edge_offset;
    plans.push_back(plan);
    if (below) ++index;
  }
  return plans;
}

std::vector<SizePlan> thread_recheck_plans(const Benchmark& bench, uint64_t seed) {
  std::vector<SizePlan> plans;
  for (long n : bench.check_sizes)
    if (n != bench.time_size) plans.push_back({n, 1, true, SIZE_MAX});
  // Past the check sizes too, every edge case at the smallest drawn below the time size: a
  // stencil that dropped taps only with more than two threads and n past the check sizes
  // passed while the edge cases ran at the check sizes alone (red team 13). The widest gets one
  // seed: its edge cases at three thread counts cost a stencil's check half again.
  const std::vector<LargeSize> large = large_sizes_to_check(bench, seed);
  const long widest = widest_below_time(large, bench.time_size);
  const bool one_below = !large.empty() && large.front().size == widest;
  if (!large.empty() && large.front().size < widest)
    plans.push_back({large.front().size, 1, true, SIZE_MAX});
  if (widest > 0) plans.push_back({widest, 1, one_below, SIZE_MAX});  // Its edges if alone.
  plans.push_back({bench.time_size, 1, false, SIZE_MAX});             // Where the timed calls run.
  return plans;
}

std::vector<int> recheck_thread_counts(int machine) {
  // A power of two, at least four times the machine's count and four more, and at least
  // kMostThreads: kernels are held to every count up to it.
  int power = 4;
  while (power < std::max(kMostThreads, 4 * machine + 4)) power *= 2;
  return {1, 2 * machine + 3, power};
}

}  // namespace kopt
