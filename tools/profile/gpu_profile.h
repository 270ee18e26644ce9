// GPU profiling of a built CUDA benchmark, for `kopt profile` and the roofline: the driver runs
// once in mode "run", sandboxed, with the CUPTI injection library loaded through
// CUDA_INJECTION64_PATH. In PC sampling mode the samples are attributed to source lines and
// ranked; in counters mode the range-profiler counters are summed per kernel. A missing GPU,
// CUPTI's refusal (insufficient privileges) or a crash is a value with a category and a reason.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/profile/gpu_attribution.h"
#include "tools/profile/gpu_counters.h"
#include "tools/profile/gpu_lines.h"
#include "tools/profile/gpu_samples.h"
#include "util/json.h"

namespace kopt {

/// How to run the benchmark under the injection library.
struct GpuProfileOptions {
  long size = 0;  ///< Problem size; 0 for the manifest's timing size.
  uint64_t seed = 1;
  int warmup = 1;
  int reps = 5;
  std::chrono::milliseconds timeout{300000};
  int sampling_period = 0;  ///< 2^n cycles between samples, 5..31; 0 for CUPTI's default.
  std::filesystem::path injection_library;  ///< Empty: find_injection_library().
  /// The text of the kernel file that was built (shown for "kernel.cu" lines); empty: the
  /// benchmark's original kernel.
  std::string kernel_source;
  SassLineMapper* line_mapper = nullptr;  ///< Null: default_line_mapper().
  int top_lines = 10;
  /// When set, the library's raw output (JSON lines, cubins) is copied into this folder.
  std::filesystem::path keep_raw;
  /// Refuse early when the machine has no GPU device node; false only for tests that stand a
  /// fake driver in for CUDA.
  bool require_gpu = true;
};

/// A PC sampling profile, or why there is none.
struct GpuProfile {
  /// Empty on success; else "no-gpu", "insufficient-privileges", "not-supported",
  /// "profiler-busy", "cupti-error", "no-samples", "crash", "timeout", "setup", ...
  std::string category;
  std::string failure;  ///< One line when category is set.
  PcSamplingData samples;
  GpuAttribution attribution;
  std::string summary;  ///< The compact ranked text for the model.
  double seconds = 0;   ///< Wall time of the profiled run.

  /// True when there is a result (no failure category).
  bool ok() const { return category.empty(); }
};

/// Range-profiler counters per kernel, or why there are none.
struct GpuCounters {
  std::string category;  ///< As GpuProfile::category.
  std::string failure;
  GpuCounterData data;
  std::vector<GpuKernelCounters> kernels;

  /// True when there is a result (no failure category).
  bool ok() const { return category.empty(); }
};

/// $KOPT_CUPTI_INJECT, else libkopt_cupti_inject.so beside the running kopt; empty when absent.
std::filesystem::path find_injection_library();

/// Runs `binary` (built from `bench`) under PC sampling and attributes the samples.
GpuProfile profile_gpu(const ExecutionContext& ctx, const Benchmark& bench,
                       const std::filesystem::path& binary, const GpuProfileOptions& options);

/// Runs `binary` under the range profiler (kernel replay) and sums the counters per kernel.
GpuCounters collect_gpu_counters(const ExecutionContext& ctx, const Benchmark& bench,
                                 const std::filesystem::path& binary,
                                 const GpuProfileOptions& options);

/// Records: category and failure, or the attribution (and raw totals).
Json to_json(const GpuProfile& profile);
Json to_json(const GpuCounters& counters);

}  // namespace kopt
