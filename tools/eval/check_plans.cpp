#include "tools/eval/check_plans.h"

#include <algorithm>
#include <random>

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

int past_time_count(const std::vector<LargeSize>& large) {
  return static_cast<int>(
      std::count_if(large.begin(), large.end(), [](const LargeSize& l) { return l.past_time; }));
}

// The k-th draw of the evaluation's seed for sharing work out past the time size.
uint64_t past_time_draw(uint64_t seed, int k) {
  std::mt19937_64 rng(seed ^ 0x243f6a8885a308d3ULL);  // Apart from the sizes' own draws.
  rng.discard(static_cast<unsigned long long>(k));
  return rng();
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
  // Past the time size every edge case runs too, each at one of the drawn sizes there (another
  // for each evaluation), and the smallest calls one problem twice: every kind of call the
  // sizes below it meet, a kernel meets past it (red team 25: an edge case's path wrong only at
  // even sizes, a result kept for its pointers and a split by a fixed thread count, each only
  // past the time size, passed while only seeds ran there, or a third of the edge cases at one
  // odd size).
  const std::vector<LargeSize> large = large_sizes_to_check(bench, seed);
  const long widest = widest_below_time(large, bench.time_size);
  int sharing = -1;  // How many share the edge cases: those below the time size but the first.
  for (const LargeSize& l : large) sharing += l.size < bench.time_size;
  const int past = past_time_count(large);
  const int shift = past > 0 ? static_cast<int>(past_time_draw(seed, 0) % past) : 0;
  int index = -1, past_index = 0;
  for (const LargeSize& l : large) {
    const bool below = l.size < bench.time_size, first = index < 0;
    // The largest size with every edge case too: a limit of one dimension alone between the
    // time size's and the largest's (licm's rows past 2^24, reached only by a one-column shape
    // past n = 4096) met no line-shaped edge case while the drawn sizes past the time size
    // seldom came near the largest (red team 27).
    const bool largest = !below && !l.past_time;
    SizePlan plan{l.size, l.seeds, below || l.past_time || largest, 3,
                  below && (first || l.size == widest)};
    if (below && !first) plan.edge_stride = sharing, plan.edge_offset = index;
    if (l.past_time) {
      plan.edge_stride = past, plan.edge_offset = (past_index + shift) % past;
      plan.again = past_index++ == 0;
    }
    plans.push_back(plan);
    if (below) ++index;
  }
  return plans;
}

std::vector<SizePlan> thread_recheck_plans(const Benchmark& bench, uint64_t seed, int count) {
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
  // And one drawn past the time size, another for each count (red team 25: rows split by hand
  // between threads 0 and 1 only past the time size passed while no count but the machine's
  // ran there), at the drawn count with every edge case (red team 27: a stencil cutting its
  // taps with more than two threads from n = 2^20 on passed while the edge cases ran at other
  // counts only at the smallest drawn size). Not at 256 threads: on a small machine that many
  // threads there made each of scan's cheats cost twice its check.
  if (const int past = past_time_count(large); past > 0) {
    const auto k =
        static_cast<int>((past_time_draw(seed, 1) + static_cast<uint64_t>(count)) % past);
    const auto it =
        std::find_if(large.begin(), large.end(), [](const LargeSize& l) { return l.past_time; });
    plans.push_back({(it + k)->size, 1, count == kDrawnRecheck, 3});
  }
  return plans;
}

std::vector<int> recheck_thread_counts(int machine, uint64_t seed) {
  // A power of two, at least four times the machine's count and four more, and at least
  // kMostThreads: kernels are held to every count up to it.
  int power = 4;
  while (power < std::max(kMostThreads, 4 * machine + 4)) power *= 2;
  // Between them a count drawn for this evaluation: half the time one of the core counts
  // common machines have, else any count past the machine's.
  static constexpr int kCommonCores[] = {3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192};
  const int low = machine + 1;
  std::mt19937_64 rng(seed ^ 0x6a09e667f3bcc909ULL);
  std::vector<int> common;
  for (int c : kCommonCores)
    if (c >= low && c < power) common.push_back(c);
  const bool pick_common = !common.empty() && rng() % 2 == 0;
  const int drawn = pick_common
                        ? common[rng() % common.size()]
                        : low + static_cast<int>(rng() % static_cast<uint64_t>(power - low));
  return {1, drawn, power};
}

}  // namespace kopt
