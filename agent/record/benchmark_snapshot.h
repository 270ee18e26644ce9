// A run's own copy of its benchmark: RUN/benchmark/NAME/ holds the manifest and every file the
// benchmark's hash covers, as they were when the run started. `kopt replay` and `kopt resume`
// judge with it once the suite's copy has changed, so that a fix to a benchmark leaves the runs
// recorded before it replayable.
#pragma once

#include <filesystem>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "util/result.h"

namespace kopt {

/// The folder of a run's copy of benchmark `name`: RUN/benchmark/NAME (a suite of one).
std::filesystem::path benchmark_snapshot_dir(const std::filesystem::path& run_dir,
                                             const std::string& name);

/// Whether the run keeps a copy of benchmark `name` (records made before copies were kept have
/// none).
bool has_benchmark_snapshot(const std::filesystem::path& run_dir, const std::string& name);

/// Copies the files of `bench` that its hash covers into the run's folder; an Error when the copy
/// does not hash to bench.hash (a file changed since the benchmark was loaded).
Status write_benchmark_snapshot(const Benchmark& bench, const std::filesystem::path& run_dir);

/// Loads the run's copy of benchmark `name`; an Error when it is missing, does not load, or does
/// not hash to `recorded_hash` (it was changed after the run was recorded).
Result<Benchmark> load_benchmark_snapshot(const std::filesystem::path& run_dir,
                                          const std::string& name,
                                          const std::string& recorded_hash);

/// The benchmark a recorded run was made with, and why it is not the suite's copy.
struct RecordedBenchmark {
  Benchmark bench;
  /// Empty when the suite's copy is the one the run was made with; else why the run's own copy
  /// is used instead ("the suite's copy of stencil1d changed since this run was recorded").
  std::string why_recorded_copy;
};

/// The suite's copy (`suite_copy`, as the run's configuration finds it) when it hashes to
/// `recorded_hash`, else the run's own copy, verified against `recorded_hash`. An Error when
/// neither is the benchmark the run was made with: the suite's copy changed (or is gone) and the
/// record keeps no copy, or a tampered one.
Result<RecordedBenchmark> recorded_benchmark(const std::filesystem::path& run_dir,
                                             const std::string& name,
                                             const std::string& recorded_hash,
                                             Result<Benchmark> suite_copy);

}  // namespace kopt
