// `kopt predict` for CUDA: the launches of one call (a benchmark's, traced without a GPU by
// gpu_trace.h; a file's kernel, at the launch given), each costed by the PTX model at its own
// grid, block and arguments, and timed by the GPU model (gpu_time.h) on a GPU of the hardware
// table with the efficiencies of that GPU's calibration, or the defaults where there is none.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/predict/gpu_time.h"
#include "tools/predict/prediction_subject.h"
#include "tools/source/source_file.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// The GPU and the efficiencies a CUDA prediction is made with.
struct GpuTarget {
  HardwareSpec gpu;
  GpuEfficiency efficiency;
  bool calibrated = false;
  std::string calibration;  ///< Where the efficiencies come from, in words.
};

/// The GPU named `hardware` (empty: the one nvidia-smi names, else the h100) with this
/// machine's calibration where it was measured on that GPU (measured now if there is a GPU
/// and none is cached), else the default efficiencies; `calibrate` false: the defaults.
Result<GpuTarget> gpu_target(const ExecutionContext& ctx, const std::string& hardware,
                             bool calibrate);

/// A CUDA prediction of one call of a benchmark's variant or of a file's kernel.
struct GpuVariantPrediction : PredictionSubject {
  GpuTimePrediction time;
  std::string calibration;
};

/// Predicts one call of `source` as CUDA benchmark `bench`'s kernel file at `size` (0: the
/// time size).
Result<GpuVariantPrediction> predict_gpu_variant(const ExecutionContext& ctx,
                                                 const Benchmark& bench, const std::string& variant,
                                                 const std::string& source, long size,
                                                 const GpuTarget& target);

/// A CUDA file's kernels (or the one named), each one launch at `launch` with `args`.
struct GpuFileRequest {
  SourceFile source;
  std::string kernel;
  LaunchConfig launch;
  std::vector<std::optional<double>> args;
};

/// Predicts one launch of each kernel of a CUDA file.
Result<std::vector<GpuVariantPrediction>> predict_gpu_file(const ExecutionContext& ctx,
                                                           const GpuFileRequest& request,
                                                           const GpuTarget& target);

/// The kopt-prediction/1 document.
Json to_json(const GpuVariantPrediction& prediction);

/// A few lines for people.
std::string summarize(const GpuVariantPrediction& prediction);

}  // namespace kopt
