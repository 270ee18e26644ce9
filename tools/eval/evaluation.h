// One candidate's verdict and everything measured on the way: the "kopt-evaluation/1" JSON
// document that `kopt eval --json` prints and run records keep.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "tools/eval/build.h"
#include "tools/eval/check.h"
#include "tools/eval/plausibility.h"
#include "tools/eval/timing.h"
#include "util/json.h"

namespace kopt {

/// Verdicts, from best to worst.
namespace verdict {
inline constexpr const char* kFaster = "faster";         ///< Correct and a significant win.
inline constexpr const char* kNotFaster = "not-faster";  ///< Correct, no significant difference.
inline constexpr const char* kSlower = "slower";         ///< Correct and significantly slower.
inline constexpr const char* kCorrect = "correct";       ///< Correct; not timed.
inline constexpr const char* kIncorrect = "incorrect";   ///< Wrong outputs, crash, timeout, ...
inline constexpr const char* kRejected = "rejected";     ///< A static policy finding (a cheat).
inline constexpr const char* kBuildFailed = "build-failed";
inline constexpr const char* kError = "error";  ///< kopt could not judge (setup).
/// Whether a verdict means the candidate computed the right results.
bool is_correct(std::string_view status);
}  // namespace verdict

/// Achieved rates at the time size, from the manifest's analytic work and measured medians.
struct Placement {
  double flops = 0;  ///< Per call.
  double bytes = 0;  ///< Per call.
  double baseline_gflops = 0, baseline_gbytes = 0;
  double candidate_gflops = 0, candidate_gbytes = 0;
};

/// How much a verdict says. A function's comes from kopt's clock around each call of the kernel
/// on fresh, poisoned inputs, every output compared; a whole program's from the wall time of
/// whole runs, checked by the program's own PASS line and/or a compare command: weaker.
namespace strength {
inline constexpr const char* kFunction = "function";
inline constexpr const char* kProgram = "program";
}  // namespace strength

/// What a program verdict says of itself, in every one-line verdict of one.
inline constexpr const char* kProgramCaveat =
    "a whole-program verdict, weaker than a function's: wall time of whole runs, the program's "
    "own check, no per-call timing, no poisoned outputs";

/// What a whole-program evaluation records besides the wall times in `timing`.
struct ProgramRecord {
  std::string build;  ///< The manifest's commands.
  std::string run;
  std::string pass_regex;
  std::string compare;
  int runs_checked = 0;  ///< Candidate runs whose exit and PASS line were checked.
  /// Seconds each run printed (time.region_regex), in run order: the programs' own claims,
  /// recorded beside kopt's wall times and never the basis of the verdict.
  std::string region_regex;
  std::vector<double> baseline_region;
  std::vector<double> candidate_region;
  double region_speedup = 0;  ///< Median printed baseline over median printed candidate.
  /// Candidate runs that printed a region longer than kopt's wall time of the whole run: a
  /// printed time that cannot be true.
  int region_over_wall = 0;
  std::string original_output;   ///< The tail of the original's checked run's output.
  std::string candidate_output;  ///< The tail of the candidate's.
};

Json to_json(const ProgramRecord& program);

struct Evaluation {
  std::string benchmark;
  std::string benchmark_hash;
  std::string label;  ///< "human", a file name, "candidate 0003", ...
  std::string source_hash;
  std::string baseline = "original";
  std::string status;    ///< One of verdict::*.
  std::string category;  ///< Why, in one word, when not a clean verdict ("cache", "timeout").
  std::string reason;    ///< One line for people and models.
  std::vector<uint64_t> check_seeds;
  uint64_t timing_seed = 0;
  /// Seeds the sizes drawn beside the manifest's (drawn_sizes.h): never sent to a driver, so a
  /// kernel that recovers its inputs' seeds cannot work out which sizes will be checked.
  uint64_t size_seed = 0;
  BuildOutcome build;
  std::string original_remarks;  ///< The original's vectorization remarks, from its build.
  std::optional<CheckOutcome> check;
  std::optional<TimingOutcome> timing;
  std::optional<Placement> placement;
  std::optional<Plausibility> plausibility;  ///< The roofline gate, for a faster candidate.
  /// strength::kFunction or strength::kProgram ("verdict_strength" in the document).
  std::string verdict_strength = strength::kFunction;
  std::optional<ProgramRecord> program;  ///< Only for a program benchmark.
  std::string sandbox;
  std::map<std::string, std::string> environment;
  std::string started;  ///< ISO 8601, UTC.
  double seconds = 0;

  /// True for a correct candidate (faster, not-faster or slower).
  bool correct() const;
  /// The measured speedup over the baseline, or 0 when not timed.
  double speedup() const { return timing ? timing->interval.speedup : 0; }
};

/// Sets the verdict's status, category and reason.
void set_verdict(Evaluation& e, const char* status, std::string category, std::string reason);

/// The verdict of a finished timing stage: faster, slower or neither (the process floor says
/// why a significant difference may still be none), or its failure.
void judge_timing(Evaluation& e);

/// The versioned JSON document with every sample.
Json to_json(const Evaluation& evaluation);

/// "faster: 6.98x [6.85, 7.10] p=3e-12" or "incorrect (cache): ..." in one line.
std::string one_line(const Evaluation& evaluation);

/// The current time in ISO 8601, UTC.
std::string now_iso8601();

}  // namespace kopt
