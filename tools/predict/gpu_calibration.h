// The GPU time model's efficiencies measured on this machine's GPU, once: a short sweep of
// CUDA microkernels (gpu_calibration_kernels.cu, compiled with nvcc at run time and run in the
// sandbox), each dominated by one term of the model and counted by the same PTX model a
// prediction uses, so that counted work over measured time is the rate that term achieves;
// over the hardware table's peak, its efficiency. Launch overheads from empty launches timed
// as the harness times a call. Cached under cache_dir()/predict/ by the GPU's name, its
// driver and the sweep's source ("kopt-gpu-calibration/1").
#pragma once

#include <map>
#include <optional>
#include <string>

#include "tools/eval/context.h"
#include "tools/machine/hardware.h"
#include "tools/predict/gpu_time.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

struct GpuCalibration {
  GpuEfficiency efficiency;
  std::string gpu;       ///< As nvidia-smi names it, with the driver version.
  std::string hardware;  ///< The hardware table's entry the efficiencies are relative to.
  std::string measured_at;
  std::string key;
  Json sweep;  ///< Per kernel: its launch, measured seconds and counted work.
  bool cached = false;
};

/// One sweep kernel's measurement and the PTX model's count of its work.
struct GpuSweepPoint {
  double seconds = 0;
  double fp32_flops = 0, fp64_flops = 0, int_ops = 0, dram_bytes = 0, global_atomics = 0;
};

/// The most of a hardware table's peak a calibration may measure: above it, the sweep's counts
/// or the table entry are wrong (an H200 measured 73% to 92%).
inline constexpr double kMostGpuEfficiency = 1.5;

/// An Error naming the first figure of `e` outside its bounds: each efficiency in
/// (0, kMostGpuEfficiency], contended atomics in (0, 1e14] a second, launches in [0, 0.1] s.
/// A cached document past them is measured again.
Status check_gpu_efficiency(const GpuEfficiency& e);

/// The efficiencies from the sweep's points ("kg_stream", "kg_fma32", "kg_fma64", "kg_int",
/// "kg_atomic", "launch_1", "launch_100") on `gpu`; an Error names a point missing or
/// without work, or a figure past check_gpu_efficiency's bounds.
Result<GpuEfficiency> fit_gpu_efficiency(const std::map<std::string, GpuSweepPoint>& points,
                                         const HardwareSpec& gpu);

/// "NAME, DRIVER" of the GPU nvidia-smi reports, or an Error saying why there is none.
Result<std::string> gpu_identity(const ExecutionContext& ctx);

/// The hardware table's name for a GPU as nvidia-smi names it ("h100"), or empty.
std::string hardware_name_of_gpu(const std::string& identity);

/// The cached calibration of this machine's GPU, or a fresh sweep (under 30 s) stored in the
/// cache. An Error without a GPU, with the reason.
Result<GpuCalibration> gpu_calibration(const ExecutionContext& ctx, bool refresh = false);

/// The cached calibration of this machine's GPU, if there is a GPU and one was measured.
std::optional<GpuCalibration> cached_gpu_calibration(const ExecutionContext& ctx);

Json to_json(const GpuCalibration& calibration);
Result<GpuCalibration> gpu_calibration_from_json(const Json& doc);

/// A few lines for people.
std::string describe(const GpuCalibration& calibration);

}  // namespace kopt
