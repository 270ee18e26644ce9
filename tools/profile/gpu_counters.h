// Hardware counters per kernel from the injection library's counters mode (counters.jsonl): the
// range-profiler metrics of gpu_format.h for every launch, summed per kernel, as the roofline's
// `measured` method needs them (flops = add + mul + 2 * fma, per precision).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tools/roofline/counters.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// One profiled kernel launch: metric name -> value.
struct GpuLaunchCounters {
  std::string kernel;  ///< Mangled name when known.
  std::map<std::string, double> metrics;
};

/// What a counters run left behind.
struct GpuCounterData {
  std::string chip;  ///< "GH100", ...
  uint64_t passes = 0;
  uint64_t ranges_dropped = 0;
  std::vector<std::string> warnings;
  std::vector<GpuLaunchCounters> launches;
};

/// The counters of one kernel, summed over its launches.
struct GpuKernelCounters {
  std::string kernel;  ///< Demangled.
  int launches = 0;
  double fadd = 0, fmul = 0, ffma = 0;  ///< FP32 thread instructions.
  double dadd = 0, dmul = 0, dfma = 0;  ///< FP64 thread instructions.
  double integer = 0;                   ///< Integer thread instructions.
  double dram_bytes = 0;
  double duration_ns = 0;

  /// FP32 flops: add + mul + 2 * fma.
  double fp32_flops() const { return fadd + fmul + 2 * ffma; }
  /// FP64 flops: add + mul + 2 * fma.
  double fp64_flops() const { return dadd + dmul + 2 * dfma; }
};

/// One average execution of the kernel, as the roofline's `measured` method takes it.
KernelCounters to_kernel_counters(const GpuKernelCounters& kernel);

/// Reads counters.jsonl from the library's output folder.
Result<GpuCounterData> read_gpu_counters(const std::filesystem::path& folder);

/// Sums the launches per kernel, in order of first launch.
std::vector<GpuKernelCounters> per_kernel(const GpuCounterData& data);

/// The per-kernel counters with their derived flops, for records.
Json to_json(const std::vector<GpuKernelCounters>& kernels);

}  // namespace kopt
