// `kopt profile` on the CPU: builds a variant (cached), calibrates the call time, and samples a
// "run"-mode driver long enough for a useful sample count with perf, or counts instructions
// with callgrind where perf cannot run. Optionally measures perf's overhead on the same driver.
#pragma once

#include <filesystem>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/evaluator.h"
#include "tools/profile/cpu_profile.h"
#include "util/result.h"

namespace kopt {

struct CpuProfileOptions {
  long size = 0;  ///< Problem size; 0 for the manifest's time size.
  uint64_t seed = 1;
  double seconds = 2.0;           ///< Length of the sampled run (perf).
  int frequency = 999;            ///< perf samples per second per thread.
  std::string profiler = "auto";  ///< "auto" (perf, else callgrind), "perf" or "callgrind".
  bool measure_overhead = false;  ///< Also time the driver with and without perf.
  /// Where to keep the profiler's own output and the profiled driver, so that `perf report`,
  /// hotspot or kcachegrind can open it; empty to keep nothing.
  std::filesystem::path keep_dir;
};

/// The profiler's cost: median call time without and with perf recording.
struct ProfileOverhead {
  double plain_seconds = 0;
  double profiled_seconds = 0;
  int rounds = 0;
  int reps = 0;
  /// profiled / plain - 1.
  double fraction() const { return plain_seconds > 0 ? profiled_seconds / plain_seconds - 1 : 0; }
};

/// A profile with what it took.
struct ProfileRun {
  CpuProfile profile;
  std::optional<ProfileOverhead> overhead;
};

/// Profiles `source` as the kernel file of `bench` (a C++ or OpenMP benchmark).
Result<ProfileRun> profile_cpu(EvaluationExecutor& executor, const ExecutionContext& ctx,
                               const Benchmark& bench, const std::string& source,
                               const CpuProfileOptions& options);

Json to_json(const ProfileOverhead& overhead);

}  // namespace kopt
