// One side of a whole-program evaluation (manifest "kind": "program"): the benchmark's folder
// staged with the side's editable files, built by the manifest's build command in the sandbox,
// then run by its run command, each run in a fresh copy of the built folder (nothing a run
// writes reaches the next), its wall time taken by kopt from outside the program's process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/build.h"
#include "tools/eval/context.h"
#include "util/files.h"

namespace kopt {

/// One run of a program: what kopt saw of its process, and the time it printed, if any.
struct ProgramRun {
  ProcessResult process;  ///< Exit, merged output, wall seconds by kopt's clock.
  /// The region time the program printed (time.region_regex), in seconds: the candidate's own
  /// claim, recorded and never the basis of a verdict.
  std::optional<double> region_seconds;
  std::filesystem::path folder;  ///< Where it ran; valid until the side's next run.
};

/// A program side: its workspace, its build and its runs.
class ProgramSide {
 public:
  ProgramSide(const ExecutionContext& ctx, const Benchmark& bench);

  /// Copies the folder (without its manifest) and writes `files` over the editable ones.
  Status stage(const std::map<std::string, std::string>& files);
  /// Runs the build command in the staged folder; the failure is its first compiler error.
  BuildOutcome build();
  /// Runs the run command in a fresh copy of the built folder, with $KOPT_SEED set to `seed`
  /// (a program that reads it makes its inputs from it: both sides of a pair get the same).
  ProgramRun run(uint64_t seed);
  /// The latest run (its folder is still there).
  const ProgramRun& last_run() const { return last_; }

 private:
  const ExecutionContext& ctx_;
  const Benchmark& bench_;
  TempDir root_;  ///< built/ and run/, the same path lengths on every side.
  ProgramRun last_;
};

/// Why a run fails the program's own check (its exit, then pass_regex on some line of its
/// output), or "" when it passes. `category` gets "crash", "timeout" or "wrong".
std::string run_failure(const ProgramSpec& spec, const ProgramRun& run, std::string& category);

/// Runs the manifest's compare command in the sandbox on the original's and the candidate's
/// runs (their folders read-only, their outputs as files; DESIGN.md names the variables);
/// "" when it exits 0, else why not.
std::string compare_failure(const ExecutionContext& ctx, const Benchmark& bench,
                            const ProgramRun& original, const ProgramRun& candidate);

/// The time printed on the first line that `regex` matches: group 1 a number, group 2 (when
/// there is one) its unit, s, ms, us or ns (default s).
std::optional<double> printed_seconds(const std::string& regex, const std::string& output);

}  // namespace kopt
