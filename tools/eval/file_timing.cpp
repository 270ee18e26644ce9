#include "tools/eval/file_protocol.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include <fmt/format.h>

#include "util/timing_lease.h"

#include "tools/eval/check.h"
#include "tools/eval/driver_run.h"

namespace kopt {

namespace {

using Clock = std::chrono::steady_clock;

// How hard the file protocol tries (the session's TimingOptions do not apply to it).
struct FileTimingOptions {
  double budget_seconds = 20;
  double target_half_width = 0.02;
  int min_rounds = 3;
  int max_rounds = 40;
  double process_seconds = 0.3;  ///< Timed calls per process add up to about this.
  int captures_per_process = 2;  ///< Timed calls checked per process: the last, and random.
  double confidence = 0.95;
  double alpha = 0.01;  ///< Significance level of the Mann-Whitney test.
};

// One side of the comparison: its binary, its repetitions and what it measured.
struct Side {
  const std::filesystem::path* binary;
  bool is_candidate;
  int reps = 2;
  Runs* runs;
};

class TimingSession {
 public:
  TimingSession(const ExecutionContext& ctx, const Benchmark& bench, const OutputRecord& reference,
                uint64_t seed, const FileTimingOptions& options, int allowed_threads,
                TimingOutcome& out)
      : ctx_(ctx),
        bench_(bench),
        reference_(reference),
        seed_(seed),
        options_(options),
        allowed_threads_(allowed_threads),
        out_(out),
        rng_(seed ^ 0x5eed) {}

  // Runs one process of `side`; returns false (with out_ filled in) when it must stop.
  bool measure(Side& side, int warmup, std::vector<double>* samples) {
    DriverRequest r;
    r.mode = "time";
    r.size = bench_.time_size;
    r.seeds = {seed_};
    r.warmup = warmup;
    r.reps = side.reps;
    r.memory_bytes = bench_.language == Language::cuda ? 0 : default_memory_limit();
    r.timeout = timeout_for(side, warmup);
    if (side.is_candidate) r.capture = pick_captures(side.reps);
    DriverRun run = run_driver(ctx_, bench_, *side.binary, r);
    const std::string who = side.is_candidate ? "candidate" : "baseline";
    if (!run.failure.empty()) {
      out_.baseline_failed = !side.is_candidate;
      return stop(run.category, "timed run of the " + who + ": " + run.failure);
    }
    if (run.samples.size() != static_cast<size_t>(side.reps))
      return stop("output", "the " + who + " reported " + std::to_string(run.samples.size()) +
                                " timings, expected " + std::to_string(side.reps));
    if (side.is_candidate && !check_captures(run, r.capture)) return false;
    *samples = run.samples;
    return true;
  }

  double typical_call(const Side& side) const {
    return side.runs->empty() ? 1.0 : spread(*side.runs).median;
  }

 private:
  std::chrono::milliseconds timeout_for(const Side& side, int warmup) const {
    const double expected = (warmup + side.reps) * (side.runs->empty() ? 1.0 : typical_call(side));
    return std::chrono::milliseconds(static_cast<long>(1000 * std::max(60.0, 10 * expected)));
  }

  // The last call always (a kernel that stops working after N calls fails it), the rest drawn.
  std::vector<int> pick_captures(int reps) {
    std::vector<int> picks = {reps - 1};
    std::uniform_int_distribution<int> pick(0, reps - 1);
    for (int i = 1; i < options_.captures_per_process; ++i) picks.push_back(pick(rng_));
    std::sort(picks.begin(), picks.end());
    picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    return picks;
  }

  bool check_captures(const DriverRun& run, const std::vector<int>& capture) {
    if (run.outputs.size() != capture.size())
      return stop("output", fmt::format("{} captured timed calls were written, expected {}",
                                        run.outputs.size(), capture.size()));
    for (const auto& record : run.outputs) {
      Comparison cmp = compare(record, reference_, bench_.rtol, bench_.atol);
      ++out_.captures_checked;
      if (!cmp.ok)
        return stop(cmp.category,
                    fmt::format("timed call {} computed a wrong result (a kernel that "
                                "skips work after its first call?): {}",
                                record.label, cmp.reason));
    }
    const std::string threads = thread_violation(run.threads_max, allowed_threads_);
    return threads.empty() || stop("thread", threads);
  }

  bool stop(const std::string& category, const std::string& reason) {
    out_.ok = false;
    out_.category = category;
    out_.reason = reason;
    return false;
  }

  const ExecutionContext& ctx_;
  const Benchmark& bench_;
  const OutputRecord& reference_;
  uint64_t seed_;
  const FileTimingOptions& options_;
  int allowed_threads_;
  TimingOutcome& out_;
  std::mt19937_64 rng_;
};

int reps_for(double call_seconds, double process_seconds) {
  return std::clamp(static_cast<int>(std::ceil(process_seconds / std::max(call_seconds, 1e-7))), 3,
                    1000);
}

void summarize(TimingOutcome& out, const FileTimingOptions& options, uint64_t seed) {
  out.baseline_spread = spread(out.baseline);
  out.candidate_spread = spread(out.candidate);
  out.interval = bootstrap_speedup(out.baseline, out.candidate, options.confidence, 2000, seed);
  out.ci_level = options.confidence;
  out.test = "Mann-Whitney U on pooled calls, two-level bootstrap interval";
  out.p_value = mann_whitney_p(pooled(out.baseline), pooled(out.candidate));
  out.significant = out.p_value < options.alpha && (out.interval.low > 1 || out.interval.high < 1);
}

bool tight_enough(const TimingOutcome& out, const FileTimingOptions& options) {
  if (out.interval.speedup <= 0) return false;
  return (out.interval.high - out.interval.low) / 2 <=
         options.target_half_width * out.interval.speedup;
}

}  // namespace

TimingOutcome time_with_files(const ExecutionContext& ctx, const Benchmark& bench,
                              const std::filesystem::path& baseline,
                              const std::filesystem::path& candidate, const OutputRecord& reference,
                              uint64_t seed, double budget_seconds, int allowed_threads) {
  const TimingLease lease("kopt: timing " + bench.name,  // No other kopt times on these devices.
                          bench.language == Language::cuda ? TimingLease::visible_gpu() : -1);
  const auto start = Clock::now();
  FileTimingOptions options;
  options.budget_seconds = budget_seconds;
  TimingOutcome out;
  out.ok = true;
  TimingSession session(ctx, bench, reference, seed, options, allowed_threads, out);
  Runs calibration_b, calibration_c;
  Side base{&baseline, false, 2, &calibration_b};
  Side cand{&candidate, true, 2, &calibration_c};
  // Calibration: a short process each tells how long a call takes; its samples are dropped.
  std::vector<double> samples;
  for (Side* side : {&base, &cand}) {
    if (!session.measure(*side, 1, &samples)) return out;
    side->runs->push_back(samples);
  }
  base.reps = reps_for(session.typical_call(base), options.process_seconds);
  cand.reps = reps_for(session.typical_call(cand), options.process_seconds);
  out.warmup = std::clamp(
      static_cast<int>(std::ceil(0.05 / std::max(session.typical_call(base), 1e-7))), 1, 20);
  base.runs = &out.baseline;
  cand.runs = &out.candidate;
  out.baseline_reps = base.reps;
  out.candidate_reps = cand.reps;
  for (int round = 0; round < options.max_rounds; ++round) {
    Side* order[2] = {&base, &cand};
    if (round % 2) std::swap(order[0], order[1]);
    for (Side* side : order) {
      if (!session.measure(*side, out.warmup, &samples)) return out;
      side->runs->push_back(samples);
    }
    out.rounds = round + 1;
    summarize(out, options, seed);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (out.rounds >= options.min_rounds &&
        (tight_enough(out, options) || elapsed > options.budget_seconds))
      break;
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (const Runs* runs : {&out.baseline, &out.candidate})
    for (double call : pooled(*runs)) out.timed_seconds += call;
  return out;
}

}  // namespace kopt
