// The correctness stage: the candidate's outputs against the original's, on every check size,
// for seeds drawn at evaluation time, all seeds in one process on the same buffers (so a
// kernel that caches results across calls is caught).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/driver_run.h"
#include "util/json.h"

namespace kopt {

/// The result for one check size.
struct CheckCase {
  long size = 0;
  bool ok = false;
  std::string category;
  std::string reason;
  double max_abs_error = 0;
  double max_rel_error = 0;
  double original_seconds = 0;  ///< Wall time of the original's check process.
  double candidate_seconds = 0;
};

/// The result of the correctness stage.
struct CheckOutcome {
  bool ok = false;
  /// When !ok: "wrong", "precision", "nan", "unwritten", "shape", "cache", "thread", "crash",
  /// "timeout", "oom", "output", "no-gpu", or "error" when the original itself failed.
  std::string category;
  std::string reason;
  std::vector<uint64_t> seeds;
  std::vector<CheckCase> cases;
  double seconds = 0;
};

Json to_json(const CheckOutcome& check);

/// Threads a candidate may leave alive after its calls: what the original leaves, or one per
/// OpenMP thread.
int allowed_threads(const Benchmark& bench, const ExecutionContext& ctx, int original_max);

/// Describes a thread-count violation, or returns empty.
std::string thread_violation(int candidate_max, int allowed);

/// Runs the correctness stage.
CheckOutcome check_candidate(const ExecutionContext& ctx, const Benchmark& bench,
                             const std::filesystem::path& original,
                             const std::filesystem::path& candidate,
                             const std::vector<uint64_t>& seeds);

}  // namespace kopt
