// A pair's blocks timed without their main threads' waits for a CPU (timing.h: on_one_thread,
// waits_left_out, waits_alike; DESIGN.md, "Waits for a CPU").
#include <algorithm>
#include <cmath>

#include "tools/eval/paired_test.h"
#include "tools/eval/timing.h"

namespace kopt {

bool on_one_thread(const BlockTiming& b) {
  return b.main_running >= 0 && b.main_waiting >= 0 && b.window_cpu >= 0 &&
         b.window_cpu - b.main_running <= 50e-6 + 0.002 * b.main_running;
}

double waits_left_out(const Pair& pair, const BlockTiming& b, const TimingOptions& options) {
  if (!options.leave_out_waits || !on_one_thread(pair.baseline) || !on_one_thread(pair.candidate))
    return 0;
  return std::clamp(b.main_waiting, 0.0, std::max(0.0, b.kernel_seconds - b.main_running));
}

namespace {

// The share of its time runnable that a block's main thread spent waiting for a CPU.
double waiting_share(const BlockTiming& b) {
  const double runnable = b.main_running + b.main_waiting;
  return runnable > 0 ? b.main_waiting / runnable : 0;
}

}  // namespace

bool waits_alike(const std::vector<Pair>& pairs, const TimingOptions& options) {
  std::vector<double> surplus;  // The candidate's waiting share over the baseline's, per pair.
  for (const Pair& p : pairs)
    if (options.leave_out_waits && on_one_thread(p.baseline) && on_one_thread(p.candidate))
      surplus.push_back(waiting_share(p.candidate) - waiting_share(p.baseline));
  if (surplus.size() < 8) return true;
  // The Hodges-Lehmann estimate of the surplus (wilcoxon_paired reports it exponentiated): a
  // candidate that waits in fewer than half its pairs moves it as well as the test.
  const PairedResult r = wilcoxon_paired(surplus, 0.01);
  return !(r.p_value < 0.01 && std::log(r.speedup) > options.waits_share_tolerance);
}

}  // namespace kopt
