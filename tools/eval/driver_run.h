// Running a built benchmark driver once, in a fresh sandboxed workspace, in one of its modes
// (check, time, run), and reading back what it wrote.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/outputs.h"

namespace kopt {

/// Exit statuses of the harness (benchmarks/common/harness.h, cuda_harness.cuh).
inline constexpr int kHarnessOutOfMemory = 86;
inline constexpr int kHarnessNoGpu = 87;
inline constexpr int kHarnessCudaError = 88;

/// One invocation of a driver.
struct DriverRequest {
  std::string mode;  ///< "check", "time" or "run".
  long size = 0;
  std::vector<uint64_t> seeds;
  int warmup = 0;
  int reps = 1;
  std::vector<int> capture;
  std::chrono::milliseconds timeout{60000};
  uint64_t memory_bytes = 0;  ///< Address-space limit; 0 for none (CUDA needs none).
  bool edges = true;          ///< Check mode: the edge cases after the seeds.
};

/// What the driver did.
struct DriverRun {
  ProcessResult process;
  std::vector<OutputRecord> outputs;
  std::vector<double> samples;  ///< Seconds per timed call.
  int threads_before = 0;
  int threads_max = 0;
  /// Empty when the run completed and wrote everything; else why not, naming the cause.
  std::string failure;
  /// "crash", "timeout", "oom", "no-gpu", "output", ... when failure is set.
  std::string category;
};

/// Runs `binary` as described; never throws for a failing candidate.
DriverRun run_driver(const ExecutionContext& ctx, const Benchmark& bench,
                     const std::filesystem::path& binary, const DriverRequest& request);

/// Sets run.category and run.failure from how run.process ended (timeout, out of memory, no
/// GPU, signal, exit status), with the tail of its output.
void classify_exit(DriverRun& run, const DriverRequest& request);

/// The default memory limit of candidate processes: half the machine's memory, at most 16 GiB.
uint64_t default_memory_limit();

}  // namespace kopt
