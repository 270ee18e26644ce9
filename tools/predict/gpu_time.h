// The execution time of a call of CUDA kernels from the PTX model's counts at each launch and a
// GPU of the hardware table. Each launch takes the longest of its resources (FP32, FP64 and
// integer work at the table's peaks, special-function instructions at 16 per SM per clock,
// DRAM bytes at the table's bandwidth, global atomics at a measured rate), each peak times an
// efficiency the GPU sweep measures (gpu_calibration.h) and scaled by the share of the SMs the
// grid can keep busy; the call adds the launch overheads.
#pragma once

#include <string>
#include <vector>

#include "tools/machine/hardware.h"
#include "tools/roofline/ptx_flow.h"
#include "util/json.h"

namespace kopt {

/// What one launch of a kernel does (whole grid), from the PTX model at its launch.
struct GpuLaunchWork {
  std::string kernel;  ///< Demangled.
  LaunchConfig launch;
  double fp32_flops = 0, fp64_flops = 0, int_ops = 0, special_ops = 0;
  double dram_bytes = 0, global_atomics = 0;
};

/// The fractions of the table's peaks a GPU reaches and what a launch costs besides its work.
struct GpuEfficiency {
  double memory = 0.85;  ///< Achieved DRAM bandwidth over the table's.
  double fp32 = 0.80, fp64 = 0.80, int_ops = 0.70;
  /// Global atomics on a few hundred contended addresses: an H200 measured 3.1e9 (2026-11-28).
  double atomics_per_second = 3e9;
  double first_launch_seconds = 6e-6;   ///< A call of one empty launch, timed as the harness does.
  double next_launch_seconds = 2.5e-6;  ///< Each further launch of the same call.
};

/// The seconds one launch needs of each resource.
struct GpuTerms {
  double fp32 = 0, fp64 = 0, int_ops = 0, special = 0, memory = 0, atomics = 0;
};

struct GpuLaunchTime {
  GpuLaunchWork work;
  GpuTerms terms;
  double busy = 1;  ///< The share of the SMs the grid keeps busy (blocks / SMs, at most 1).
  double seconds = 0;
  std::string bound;  ///< "fp32", "fp64", "int", "special", "memory" or "atomics".
};

struct GpuTimePrediction {
  double seconds = 0;
  std::string bound;  ///< The bound of the launches' largest share, or "launch overhead".
  double overhead_seconds = 0;
  std::string hardware;  ///< The table's name ("h100").
  bool calibrated = false;
  std::vector<GpuLaunchTime> launches;
  std::vector<std::string> notes;
};

/// The time of one launch on `gpu`.
GpuLaunchTime predict_gpu_launch(const GpuLaunchWork& work, const HardwareSpec& gpu,
                                 const GpuEfficiency& efficiency);

/// The time of a call that makes `launches` in order (the launches' times and the overheads).
GpuTimePrediction predict_gpu_call(const std::vector<GpuLaunchWork>& launches,
                                   const HardwareSpec& gpu, const GpuEfficiency& efficiency,
                                   bool calibrated);

Json to_json(const GpuTimePrediction& prediction);

/// A few lines for people.
std::string summarize_gpu(const GpuTimePrediction& prediction);

}  // namespace kopt
