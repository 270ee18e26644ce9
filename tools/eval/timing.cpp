#include "tools/eval/timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include <fmt/format.h>

#include "tools/eval/decoys.h"
#include "tools/eval/driver_session.h"
#include "util/entropy.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

using Clock = std::chrono::steady_clock;

// Seeds no call of this evaluation has seen, each from the operating system's generator: a
// kernel that reads every seed it is given (the commands pass through its process) still cannot
// tell the next one, so it cannot compute a timed call's outputs ahead of the call. The first is
// the evaluation's recorded timing seed.
class FreshSeeds {
 public:
  FreshSeeds(uint64_t first, const std::vector<uint64_t>& used)
      : first_(first), used_(used.begin(), used.end()) {}
  std::vector<uint64_t> next(int count) {
    std::vector<uint64_t> seeds;
    while (static_cast<int>(seeds.size()) < count) {
      // 63 bits, as the check's seeds (the evaluator's draw_seeds): no range tells them apart.
      const uint64_t s = first_pending_ ? first_ : unpredictable_u64() >> 1;
      first_pending_ = false;
      if (used_.insert(s).second) seeds.push_back(s);
    }
    return seeds;
  }

 private:
  uint64_t first_;
  bool first_pending_ = true;
  std::unordered_set<uint64_t> used_;
};

class PairRunner {
 public:
  PairRunner(const Benchmark& bench, CheckSides& sides, int allowed_threads, TimingOutcome& out)
      : bench_(bench), sides_(sides), allowed_threads_(allowed_threads), out_(out) {}

  // Runs one pair on `seeds`, candidate first when asked; false (out_ set) when it must stop.
  bool run(const std::vector<uint64_t>& seeds, bool candidate_first, Pair& pair) {
    std::vector<DriverInput> inputs;
    for (uint64_t seed : seeds) inputs.push_back({seed, -1, std::nullopt});
    if (!run_block(inputs, candidate_first, std::max(10.0, 20 * typical_block_), pair))
      return failed("timed run");
    typical_block_ = std::max(typical_block_, pair.baseline.kernel_seconds);
    out_.timed_seconds += pair.baseline.kernel_seconds + pair.candidate.kernel_seconds;
    out_.untimed_seconds += std::max(pair.baseline.fill_seconds, pair.candidate.fill_seconds) +
                            pair.baseline.store_seconds + pair.candidate.store_seconds;
    return compare_outputs(inputs, pair, "timed call");
  }

  // Runs a decoy block (Decoys) as a pair of this round would run, and compares its outputs;
  // its times count nowhere, and the CPU time of its calls is kept apart (decoy_cpu) so that
  // the check of work outside the timed calls sees only the timed pairs'.
  bool decoy(const std::vector<DriverInput>& inputs, bool candidate_first) {
    DriverSession &base = *sides_.original, &cand = *sides_.candidate;
    const auto before = std::make_pair(base.cpu_seconds(), cand.cpu_seconds());
    const auto start = Clock::now();
    Pair pair;
    // An edge case may take the original much longer than an ordinary input.
    if (!run_block(inputs, candidate_first, std::max(60.0, 100 * typical_block_), pair))
      return failed("decoy block (" + edge_names(inputs) + ", among the timed pairs)");
    decoy_seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
    const auto after = std::make_pair(base.cpu_seconds(), cand.cpu_seconds());
    if (before.first && before.second && after.first && after.second) {
      decoy_cpu_.first += *after.first - *before.first;
      decoy_cpu_.second += *after.second - *before.second;
    }
    out_.decoys_checked += static_cast<int>(inputs.size());
    return compare_outputs(inputs, pair, "decoy call (checked, never timed, among the timed ones)");
  }

  // CPU seconds of the decoys' blocks: the baseline's, the candidate's.
  std::pair<double, double> decoy_cpu() const { return decoy_cpu_; }
  // Wall seconds of the decoys' blocks, which the timing's budget does not pay.
  double decoy_seconds() const { return decoy_seconds_; }

  bool stop(const std::string& category, const std::string& reason) {
    out_.ok = false;
    out_.category = category;
    out_.reason = reason;
    return false;
  }

 private:
  // The failure of a side in `what` ("timed run", "decoy block (...)").
  bool failed(const std::string& what) {
    const DriverSession& base = *sides_.original;
    if (base.failed()) {
      out_.baseline_failed = true;
      return stop(base.failure().category, what + " of the baseline: " + base.failure().reason);
    }
    const SessionFailure& f = sides_.candidate->failure();
    return stop(f.category, what + " of the candidate: " + f.reason);
  }

  // "edge case 2 (...), edge case 3 (...)": the inputs of a decoy block, in their positions.
  std::string edge_names(const std::vector<DriverInput>& inputs) const {
    std::string names;
    for (const DriverInput& in : inputs)
      names += (names.empty() ? "" : ", ") + record_name(bench_, edge_label(std::max(0, in.edge)));
    return names;
  }

  // Fills both sides from `inputs` and runs their blocks, candidate first when asked.
  bool run_block(const std::vector<DriverInput>& inputs, bool candidate_first, double limit,
                 Pair& pair) {
    DriverSession &base = *sides_.original, &cand = *sides_.candidate;
    const auto sent = Clock::now();
    return base.send_inputs(inputs) && cand.send_inputs(inputs) &&
           DriverSession::await_ready({&base, &cand}, sent, 600,
                                      {&pair.baseline, &pair.candidate}) &&
           (candidate_first ? cand.go(limit, pair.candidate) && base.go(600, pair.baseline)
                            : base.go(600, pair.baseline) && cand.go(limit, pair.candidate));
  }

  bool compare_outputs(const std::vector<DriverInput>& inputs, const Pair& pair, const char* what) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const DriverInput& in = inputs[i];
      const uint64_t label = in.edge < 0 ? in.seed : edge_label(in.edge);
      const RecordView cand = sides_.candidate->view(static_cast<int>(i), label);
      const RecordView ref = sides_.original->view(static_cast<int>(i), label);
      Comparison cmp = compare(cand, ref, bench_.rtol, bench_.atol);
      if (in.edge < 0) ++out_.captures_checked;
      if (cmp.ok) continue;
      if (in.edge < 0)
        return stop(cmp.category, fmt::format("{} {} (seed {}) computed a wrong result: {}", what,
                                              out_.captures_checked, in.seed, cmp.reason));
      return stop(cmp.category,
                  fmt::format("a {} at the time size, on {} (call {} of its block) in the timed "
                              "calls' own layout, "
                              "computed a wrong result: {} (the kernel's timed calls do not "
                              "take every input its kernel.h allows)",
                              what, record_name(bench_, label), i + 1, cmp.reason));
    }
    const std::string threads = thread_violation(pair.candidate.threads, allowed_threads_);
    return threads.empty() || stop("thread", threads);
  }

  const Benchmark& bench_;
  CheckSides& sides_;
  int allowed_threads_;
  TimingOutcome& out_;
  double typical_block_ = 0.1;
  std::pair<double, double> decoy_cpu_{0, 0};
  double decoy_seconds_ = 0;
};

double store_per_call(const BlockTiming& b) {
  return b.store_seconds / std::max(1, b.calls);
}

// The candidate's store phase beyond the baseline's in one pair, per call, past what the
// tolerance allows: work that may have been moved out of the timed calls.
double store_excess(const Pair& p, const TimingOptions& options) {
  const double call = p.candidate.kernel_seconds / std::max(1, p.candidate.calls);
  return store_per_call(p.candidate) - store_per_call(p.baseline) -
         (options.store_tolerance * call + options.store_floor_seconds);
}

// The CPU time the candidate's process used outside its window beyond the baseline's (the same
// harness work on the same inputs), pair by pair; 0 where either side was unseen.
std::vector<double> outside_cpu_surplus(const std::vector<Pair>& pairs) {
  std::vector<double> surplus;
  for (const auto& p : pairs)
    surplus.push_back(p.candidate.outside_cpu < 0 || p.baseline.outside_cpu < 0
                          ? 0
                          : p.candidate.outside_cpu - p.baseline.outside_cpu);
  return surplus;
}

}  // namespace

// What each pair's candidate block is charged for work outside its window. The candidate's
// process does the same harness work on the same inputs as the baseline's, so its surplus CPU
// time is noise, as often negative as positive, plus whatever work the kernel moved out of its
// calls. All of the surplus is charged, less the allowance (TimingOptions::
// outside_cpu_allowance): its mean in every pair, except that a pair standing out from the rest
// (beyond the median by three robust standard deviations) is charged its own excess instead of
// spreading it. Work moved out of the calls thus earns nothing however it is spread over the
// pairs, and the noise costs an honest candidate only its mean, which tends to zero.
std::vector<double> outside_cpu_charges(const std::vector<Pair>& pairs,
                                        const TimingOptions& options) {
  const std::vector<double> surplus = outside_cpu_surplus(pairs);
  if (surplus.empty()) return {};
  const double middle = upper_median(surplus);
  std::vector<double> deviation;
  for (double s : surplus) deviation.push_back(std::abs(s - middle));
  const double cap = middle + 3 * 1.4826 * upper_median(deviation);
  double capped_sum = 0;
  for (double s : surplus) capped_sum += std::min(s, cap);
  const double systematic = capped_sum / static_cast<double>(surplus.size());
  std::vector<double> charges;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const double standing_out = std::max(0.0, surplus[i] - cap);
    const double allowance = options.outside_cpu_allowance * pairs[i].candidate.kernel_seconds +
                             options.outside_cpu_floor_seconds;
    charges.push_back(std::max(0.0, systematic + standing_out - allowance));
  }
  return charges;
}

namespace {

// A block's time as its pair compares it: without its waits for a CPU where `alike`
// (waits_alike over the evaluation's pairs).
double compared_seconds(const Pair& p, const BlockTiming& b, const TimingOptions& options,
                        bool alike) {
  return b.kernel_seconds - (alike ? waits_left_out(p, b, options) : 0);
}

// Whether every block of every pair ran on one thread: one threaded block and no pair leaves
// its waits out, since a candidate that may start threads could otherwise choose, pair by pair,
// the measure that suits it (a threaded block where it waited little).
bool all_on_one_thread(const std::vector<Pair>& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [](const Pair& p) {
    return on_one_thread(p.baseline) && on_one_thread(p.candidate);
  });
}

// Each pair's time per call as compared, and what was left out of it, from the pairs so far.
void record_samples(const std::vector<Pair>& pairs, const TimingOptions& options,
                    TimingOutcome& out) {
  out.waits_alike = waits_alike(pairs, options);
  const bool leave_out = out.waits_alike && all_on_one_thread(pairs);
  out.baseline.clear(), out.candidate.clear();
  out.baseline_waits.clear(), out.candidate_waits.clear();
  out.pairs_without_waits = 0;
  for (const Pair& p : pairs) {
    const double calls = std::max(1, p.baseline.calls);
    const double base = compared_seconds(p, p.baseline, options, leave_out);
    const double cand = compared_seconds(p, p.candidate, options, leave_out);
    out.baseline.push_back({base / calls});
    out.candidate.push_back({cand / calls});
    out.baseline_waits.push_back((p.baseline.kernel_seconds - base) / calls);
    out.candidate_waits.push_back((p.candidate.kernel_seconds - cand) / calls);
    out.pairs_without_waits += leave_out && options.leave_out_waits;
  }
}

// The pairs' log-ratios with the candidate's blocks charged for work outside their window:
// a store phase longer than the baseline's (store_excess), or CPU time outside the window
// (outside_cpu_charges), whichever is larger (the CPU surplus covers the store phase's own).
// Work deferred to the outputs' first touch, or moved out of the calls, then earns nothing.
std::vector<double> charged_log_ratios(const std::vector<Pair>& pairs, const TimingOptions& options,
                                       TimingOutcome& out) {
  const std::vector<double> cpu = options.charge_outside_work
                                      ? outside_cpu_charges(pairs, options)
                                      : std::vector<double>(pairs.size(), 0.0);
  out.outside_cpu_surplus = outside_cpu_surplus(pairs);
  out.outside_cpu_charged = cpu;
  std::vector<double> ratios;
  out.store_charged_pairs = out.cpu_charged_pairs = 0;
  out.charged_seconds = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Pair& p = pairs[i];
    const double store = options.charge_outside_work
                             ? std::max(0.0, store_excess(p, options)) * p.candidate.calls
                             : 0.0;
    const double charge = std::max(store, cpu[i]);
    out.store_charged_pairs += store > 0;
    out.cpu_charged_pairs += cpu[i] > 0;
    out.charged_seconds += charge;
    const bool leave_out = out.pairs_without_waits > 0;  // As record_samples decided.
    ratios.push_back(std::log(compared_seconds(p, p.baseline, options, leave_out) /
                              (compared_seconds(p, p.candidate, options, leave_out) + charge)));
  }
  return ratios;
}

double untimed_per_call(const BlockTiming& b) {
  return (b.fill_seconds + b.store_seconds) / std::max(1, b.calls);
}

double median_of(const std::vector<Pair>& pairs, double (*value)(const Pair&)) {
  std::vector<double> values;
  for (const auto& p : pairs) values.push_back(value(p));
  return upper_median(values);
}

// Work after the clock stops: the first thing that touches a block's outputs after "done" is
// the harness copying them out, so work deferred to that touch (a fault handler on protected
// output pages, a lazily mapped page) lengthens the store phase. The same copy of the same bytes
// costs the baseline the same. Every pair's excess is charged to the candidate's time in that
// pair (time_candidate), so deferral gains nothing however often it happens. A loaded machine
// also lengthens the store phase, in most pairs at times, but by waiting, not computing: the
// candidate is turned away as deferring work only when its store phase runs long in three
// pairs of four and its process spent at least half of that extra time (plus the CPU floor) on
// the CPU outside its timed calls, over the baseline's process.
// Whether the candidate's process computed (rather than waited) for at least half of `extra`
// seconds of wall time outside its timed calls: its CPU time there beyond the baseline's
// process's, past the CPU floor. A loaded machine makes a process wait, not compute.
bool spent_computing(const TimingOutcome& out, double extra, const TimingOptions& options) {
  const double surplus = out.candidate_cpu_outside - out.baseline_cpu_outside;
  return surplus >= 0.5 * extra + options.cpu_floor_seconds;
}

bool store_phase_ok(const std::vector<Pair>& pairs, const TimingOptions& options,
                    TimingOutcome& out, PairRunner& runner) {
  out.baseline_store = median_of(pairs, [](const Pair& p) { return store_per_call(p.baseline); });
  out.candidate_store = median_of(pairs, [](const Pair& p) { return store_per_call(p.candidate); });
  std::vector<double> excess;
  double extra_seconds = 0;
  for (const auto& p : pairs) {
    excess.push_back(store_excess(p, options));
    extra_seconds += std::max(0.0, excess.back()) * p.candidate.calls;
  }
  std::sort(excess.begin(), excess.end());
  if (excess.empty() || excess[excess.size() / 4] <= 0 ||
      !spent_computing(out, extra_seconds, options))
    return true;
  const double cand_call = median_of(pairs, [](const Pair& p) {
    return p.candidate.kernel_seconds / std::max(1, p.candidate.calls);
  });
  return runner.stop(
      "deferred",
      fmt::format("storing the candidate's outputs after its calls takes {:.3g} ms per call where "
                  "the baseline's takes {:.3g} ms, while its calls take {:.3g} ms: work deferred "
                  "until the outputs are first touched, after the clock stops",
                  out.candidate_store * 1e3, out.baseline_store * 1e3, cand_call * 1e3));
}

// Work the candidate's process does outside the timed calls, beyond what the same harness code
// costs the baseline's: a kernel that defers or anticipates work (a signal handler, a lazily
// faulted page, a hijacked fill) shows up here, as wall time its process spent on the CPU.
bool untimed_work_ok(const std::vector<Pair>& pairs, const TimingOptions& options,
                     TimingOutcome& out, PairRunner& runner) {
  if (pairs.empty()) return true;
  if (!store_phase_ok(pairs, options, out, runner)) return false;
  out.baseline_untimed =
      median_of(pairs, [](const Pair& p) { return untimed_per_call(p.baseline); });
  out.candidate_untimed =
      median_of(pairs, [](const Pair& p) { return untimed_per_call(p.candidate); });
  const double excess = median_of(pairs, [](const Pair& p) {
    return untimed_per_call(p.candidate) - untimed_per_call(p.baseline);
  });
  const double base_call = median_of(pairs, [](const Pair& p) {
    return p.baseline.kernel_seconds / std::max(1, p.baseline.calls);
  });
  if (excess <= options.untimed_tolerance * (base_call + out.baseline_untimed)) return true;
  double extra_seconds = 0;
  for (const auto& p : pairs)
    extra_seconds += std::max(0.0, untimed_per_call(p.candidate) - untimed_per_call(p.baseline)) *
                     p.candidate.calls;
  if (!spent_computing(out, extra_seconds, options)) return true;
  return runner.stop(
      "deferred",
      fmt::format("the candidate's process spends {:.3g} ms per call outside the timed calls where "
                  "the baseline's spends {:.3g} ms (a call takes {:.3g} ms): work moved outside "
                  "the measured window",
                  out.candidate_untimed * 1e3, out.baseline_untimed * 1e3, base_call * 1e3));
}

// CPU time the candidate's process used outside its timed calls, against the baseline's: the
// harness does the same work on the same inputs in both (filling, poisoning, copying), so a
// surplus is work of the candidate's own outside the window — a thread (its own, or one posing
// as OpenMP's pool) that computes while the clock runs on the baseline, or between blocks. kopt
// reads both processes' CPU time from /proc before each "go" and after each "done".
bool cpu_outside_ok(const std::vector<Pair>& pairs, double candidate_cpu, double baseline_cpu,
                    const TimingOptions& options, TimingOutcome& out, PairRunner& runner) {
  double candidate_window = 0, baseline_window = 0;
  for (const auto& p : pairs) {
    if (p.candidate.window_cpu < 0 || p.baseline.window_cpu < 0) return true;  // Unseen.
    candidate_window += p.candidate.window_cpu;
    baseline_window += p.baseline.window_cpu;
  }
  out.baseline_cpu_outside = baseline_cpu - baseline_window;
  out.candidate_cpu_outside = candidate_cpu - candidate_window;
  const double limit =
      out.baseline_cpu_outside * (1 + options.cpu_tolerance) + options.cpu_floor_seconds;
  if (out.candidate_cpu_outside <= limit) return true;
  return runner.stop(
      "deferred",
      fmt::format("outside its timed calls the candidate's process used {:.3g} s of CPU over the "
                  "timed pairs where the baseline's used {:.3g} s for the same harness work: "
                  "work done outside the measured window, on a thread of its own",
                  out.candidate_cpu_outside, out.baseline_cpu_outside));
}

// The CPU charges (time_candidate) took the gain out of work moved outside the window; when
// the surplus is beyond doubt (its mean less three standard errors) at least half the
// candidate's block, the work was moved out on purpose, and the verdict names it instead of
// reporting a charged ratio.
bool charged_work_ok(const std::vector<Pair>& pairs, TimingOutcome& out, PairRunner& runner) {
  const std::vector<double>& surplus = out.outside_cpu_surplus;
  if (surplus.size() < 8) return true;
  double sum = 0, squares = 0, blocks = 0;
  for (double s : surplus) sum += s, squares += s * s;
  for (const auto& p : pairs) blocks += p.candidate.kernel_seconds;
  const double n = static_cast<double>(surplus.size()), mean = sum / n;
  const double error = std::sqrt(std::max(0.0, squares / n - mean * mean) / (n - 1));
  if (mean - 3 * error < 0.5 * blocks / static_cast<double>(pairs.size())) return true;
  return runner.stop(
      "deferred",
      fmt::format("the candidate's process used {:.3g} ms more CPU time than the baseline's "
                  "outside its timed calls in each pair (+-{:.2g} ms), for the same harness "
                  "work, while its calls take {:.3g} ms a pair: work moved out of the measured "
                  "window",
                  mean * 1e3, error * 1e3, blocks / static_cast<double>(pairs.size()) * 1e3));
}

// Calls per block: the slower side's block lasts about block_seconds, within the copy limits.
int calls_per_block(const Pair& calibration, const TimingOptions& options, size_t stride) {
  const double slower =
      std::max(calibration.baseline.kernel_seconds, calibration.candidate.kernel_seconds);
  const int wanted = static_cast<int>(std::ceil(options.block_seconds / std::max(slower, 1e-7)));
  const int memory = static_cast<int>(options.copies_bytes / std::max<size_t>(stride, 1));
  return std::clamp(std::min(wanted, memory), 1, options.max_copies);
}

// The budget is spent once `elapsed` passes it and the pairs are enough for a look whose
// interval one stray pair cannot hold (LookPlan::min_robust_pairs: 12 at alpha 0.01 over 4
// looks).
bool budget_spent(const TimingOutcome& out, const TimingOptions& options, double elapsed) {
  return elapsed > options.budget_seconds &&
         out.rounds >= std::max(8, options.plan.min_robust_pairs());
}

void summarize(TimingOutcome& out, const PairedResult& look, double process_floor) {
  out.baseline_spread = spread(out.baseline);
  out.candidate_spread = spread(out.candidate);
  out.interval = {look.speedup, look.low, look.high};
  out.p_value = look.p_value;
  out.process_floor = process_floor;
  const bool clears = clears_floor(look, process_floor);
  out.significant = look.significant && clears;
  out.within_floor = look.significant && !clears;
}

}  // namespace

bool look_due(const TimingOutcome& out, const TimingOptions& options, double elapsed) {
  return options.plan.is_look(out.rounds) || budget_spent(out, options, elapsed);
}

bool take_look(TimingOutcome& out, const TimingOptions& options, double elapsed) {
  ++out.looks;
  const PairedResult look = wilcoxon_paired(out.log_ratios, out.alpha_per_look);
  summarize(out, look, options.process_floor);
  const bool tight = (look.high - look.low) / 2 <= options.target_half_width * look.speedup;
  return out.significant || tight || budget_spent(out, options, elapsed) ||
         out.rounds >= options.plan.max_pairs();
}

TimingOutcome time_candidate(const Benchmark& bench, CheckSides& sides, uint64_t seed,
                             const std::vector<uint64_t>& used, const TimingOptions& options,
                             int allowed_threads) {
  const TimingLease lease("kopt: timing " + bench.name);  // No other kopt times on these CPUs.
  const auto start = Clock::now();
  TimingOutcome out;
  out.ok = true;
  out.alpha_per_look = options.plan.alpha_per_look();
  out.ci_level = 1 - out.alpha_per_look;
  PairRunner runner(bench, sides, allowed_threads, out);
  FreshSeeds seeds(seed, used);
  auto finish = [&] {
    out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
  };
  // Warm-up and calibration: one call each, checked like every other; its times are dropped.
  Pair pair;
  if (!DriverSession::setup_all({sides.original, sides.candidate}, bench.time_size, 1,
                                placement_offset(seed, 1)))
    return runner.stop("setup", "the sessions cannot set up the time size"), finish();
  if (!runner.run(seeds.next(1), false, pair)) return finish();
  ++out.warmup;
  const int calls = calls_per_block(pair, options, sides.original->stride());
  if (calls > 1) {
    if (!DriverSession::setup_all({sides.original, sides.candidate}, bench.time_size, calls,
                                  placement_offset(seed, calls + 1)))
      return runner.stop("setup", "the sessions cannot set up the time size"), finish();
    if (!runner.run(seeds.next(calls), true, pair)) return finish();
    ++out.warmup;
  }
  out.baseline_reps = out.candidate_reps = calls;
  std::vector<Pair> pairs;
  Decoys decoys(sides.original->edge_cases(), calls);
  const auto cpu_before =
      std::make_pair(sides.original->cpu_seconds(), sides.candidate->cpu_seconds());
  const auto timed_start = Clock::now();
  // One alternation over every block, decoys included: a decoy in an order of its own would
  // mark the block after it as timed (two blocks in a row in the same order).
  int block = 0;
  while (true) {
    if (decoys.due() && !runner.decoy(decoys.next(seeds.next(calls)), block++ % 2 == 1))
      return finish();
    if (!runner.run(seeds.next(calls), block++ % 2 == 1, pair)) return finish();
    pairs.push_back(pair);
    out.rounds = static_cast<int>(pairs.size());
    record_samples(pairs, options, out);  // Every pair's, whatever ends the loop.
    const double elapsed =
        std::chrono::duration<double>(Clock::now() - timed_start).count() - runner.decoy_seconds();
    if (!look_due(out, options, elapsed)) continue;
    out.log_ratios = charged_log_ratios(pairs, options, out);  // The charges seen so far.
    if (take_look(out, options, elapsed)) break;
  }
  while (!decoys.covered())
    if (!runner.decoy(decoys.next(seeds.next(calls)), block++ % 2 == 1)) return finish();
  const auto base_cpu = sides.original->cpu_seconds();
  const auto cand_cpu = sides.candidate->cpu_seconds();
  if (cpu_before.first && cpu_before.second && base_cpu && cand_cpu) {
    out.baseline_cpu = *base_cpu - *cpu_before.first - runner.decoy_cpu().first;
    out.candidate_cpu = *cand_cpu - *cpu_before.second - runner.decoy_cpu().second;
    if (!cpu_outside_ok(pairs, out.candidate_cpu, out.baseline_cpu, options, out, runner))
      return finish();
  }
  if (charged_work_ok(pairs, out, runner)) untimed_work_ok(pairs, options, out, runner);
  return finish();
}

Json to_json(const TimingOutcome& t) {
  auto spread_json = [](const Spread& s) {
    return Json{{"median", s.median}, {"p25", s.p25}, {"p75", s.p75},
                {"min", s.min},       {"max", s.max}, {"count", s.count}};
  };
  return {
      {"ok", t.ok},
      {"category", t.category},
      {"reason", t.reason},
      {"baseline", spread_json(t.baseline_spread)},
      {"candidate", spread_json(t.candidate_spread)},
      {"speedup", t.interval.speedup},
      {"ci_low", t.interval.low},
      {"ci_high", t.interval.high},
      {"p_value", t.p_value},
      {"significant", t.significant},
      {"process_floor", t.process_floor},
      {"within_floor", t.within_floor},
      {"ci_level", t.ci_level},
      {"test", t.test},
      {"rounds", t.rounds},
      {"looks", t.looks},
      {"alpha_per_look", t.alpha_per_look},
      {"warmup", t.warmup},
      {"baseline_reps", t.baseline_reps},
      {"candidate_reps", t.candidate_reps},
      {"captures_checked", t.captures_checked},
      {"decoys_checked", t.decoys_checked},
      {"timed_seconds", t.timed_seconds},
      {"untimed_seconds", t.untimed_seconds},
      {"untimed_per_call", {{"baseline", t.baseline_untimed}, {"candidate", t.candidate_untimed}}},
      {"store_per_call", {{"baseline", t.baseline_store}, {"candidate", t.candidate_store}}},
      {"store_charged_pairs", t.store_charged_pairs},
      {"cpu_charged_pairs", t.cpu_charged_pairs},
      {"charged_seconds", t.charged_seconds},
      {"outside_cpu_surplus", t.outside_cpu_surplus},
      {"outside_cpu_charged", t.outside_cpu_charged},
      {"cpu_seconds", {{"baseline", t.baseline_cpu}, {"candidate", t.candidate_cpu}}},
      {"cpu_outside_calls",
       {{"baseline", t.baseline_cpu_outside}, {"candidate", t.candidate_cpu_outside}}},
      {"seconds", t.seconds},
      {"log_ratios", t.log_ratios},
      {"samples", {{"baseline", t.baseline}, {"candidate", t.candidate}}},
      {"waits_left_out", {{"baseline", t.baseline_waits}, {"candidate", t.candidate_waits}}},
      {"pairs_without_waits", t.pairs_without_waits},
      {"waits_alike", t.waits_alike}};
}

}  // namespace kopt
