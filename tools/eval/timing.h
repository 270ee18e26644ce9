// The timing stage: baseline and candidate alternate in separate processes (A B, then B A),
// each process warms up and times many calls; rounds continue until the speedup's interval is
// tight or the time budget is spent. Outputs of randomly chosen timed calls are checked.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/outputs.h"
#include "tools/eval/stats.h"
#include "util/json.h"

namespace kopt {

/// How hard to try.
struct TimingOptions {
  double budget_seconds = 20;       ///< Wall time for all rounds (the first three always run).
  double target_half_width = 0.02;  ///< Stop when the interval is within +-2% of the speedup.
  int min_rounds = 3;
  int max_rounds = 40;
  double process_seconds = 0.3;  ///< Timed calls per process add up to about this.
  int captures_per_process = 2;  ///< Timed calls checked per process: the last, and random.
  double confidence = 0.95;
  double alpha = 0.01;  ///< Significance level of the Mann-Whitney test.
};

/// The result of the timing stage.
struct TimingOutcome {
  bool ok = false;       ///< False when a run failed or a timed call computed a wrong result.
  std::string category;  ///< "crash", "timeout", "unwritten", "wrong", "thread", ...
  std::string reason;
  bool baseline_failed = false;  ///< A baseline process failed: kopt cannot judge the candidate.
  Runs baseline;                 ///< Seconds per call, per process.
  Runs candidate;
  Spread baseline_spread;
  Spread candidate_spread;
  SpeedupInterval interval;
  double p_value = 1;
  bool significant = false;  ///< p < alpha and the interval excludes 1.
  int rounds = 0;
  int baseline_reps = 0;
  int candidate_reps = 0;
  int warmup = 0;
  int captures_checked = 0;
  double seconds = 0;
};

Json to_json(const TimingOutcome& timing);

/// Times candidate against baseline at the benchmark's time size with `seed`'s inputs;
/// `reference` is the original's output for that seed and size.
TimingOutcome time_candidate(const ExecutionContext& ctx, const Benchmark& bench,
                             const std::filesystem::path& baseline,
                             const std::filesystem::path& candidate, const OutputRecord& reference,
                             uint64_t seed, const TimingOptions& options, int allowed_threads);

}  // namespace kopt
