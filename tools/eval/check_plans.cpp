#include "tools/eval/check_plans.h"

#include <algorithm>

#include "tools/eval/drawn_sizes.h"

namespace kopt {

namespace {

bool has_size(const std::vector<SizePlan>& plans, long size) {
  return std::any_of(plans.begin(), plans.end(), [&](const SizePlan& p) { return p.size == size; });
}

}  // namespace

std::vector<SizePlan> check_plans(const Benchmark& bench, uint64_t seed, bool untimed) {
  std::vector<SizePlan> plans;
  for (long n : sizes_to_check(bench, seed)) plans.push_back({n, SIZE_MAX, true, SIZE_MAX, true});
  if (untimed && !has_size(plans, bench.time_size))
    plans.push_back({bench.time_size, SIZE_MAX, true, 2});
  return plans;
}

std::vector<SizePlan> later_plans(const Benchmark& bench, uint64_t seed,
                                  const std::vector<SizePlan>& checked) {
  std::vector<SizePlan> plans;
  if (!has_size(checked, bench.time_size)) plans.push_back({bench.time_size, 0, true, 2});
  // The first drawn past the check sizes (the smallest, the cheapest) also with every edge
  // case: a kernel's large path must take the hard inputs too (a tap table of 201 used only
  // for n > 4099 passed while no edge case ran there).
  bool edges = true;
  for (const LargeSize& large : large_sizes_to_check(bench, seed)) {
    plans.push_back({large.size, large.seeds, edges && large.size < bench.time_size, 2});
    edges = false;
  }
  return plans;
}

std::vector<SizePlan> thread_recheck_plans(const Benchmark& bench, uint64_t seed) {
  std::vector<SizePlan> plans;
  for (long n : bench.check_sizes)
    if (n != bench.time_size) plans.push_back({n, 1, true, SIZE_MAX});
  long widest = 0;  // The largest drawn below the time size, where a kernel's threads split most.
  for (const LargeSize& large : large_sizes_to_check(bench, seed))
    if (large.size < bench.time_size) widest = std::max(widest, large.size);
  if (widest > 0) plans.push_back({widest, 1, false, SIZE_MAX});
  plans.push_back({bench.time_size, 1, false, SIZE_MAX});  // Where the timed calls run.
  return plans;
}

std::vector<int> recheck_thread_counts(int machine) {
  return {1, 2 * machine + 3, 4 * machine + 4};
}

}  // namespace kopt
