// Execution-time prediction from static counts: a bound per resource, each the count the
// static analysis reads from the code as this machine's compiler vectorizes it (static_cpu.h,
// IrFlavor::native) times the cost the calibration sweep measured for it (calibration.h), or,
// for memory, the compulsory bytes over the bandwidth of the level that holds them (the
// machine model). The prediction is the largest bound plus the math-library calls, which
// share no resource the others model. Parallel code (OpenMP) divides the core-bound terms
// by the threads and takes the all-core bandwidth.
#pragma once

#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/machine/machine.h"
#include "tools/predict/calibration.h"
#include "tools/predict/prediction_subject.h"
#include "tools/roofline/ir_cost_model.h"
#include "tools/roofline/source_compile.h"
#include "util/json.h"

namespace kopt {

/// Seconds each resource needs.
struct TimeTerms {
  double issue = 0;
  double chain = 0;
  double divide = 0;
  double memory = 0;
  double special = 0;
};

struct TimePrediction {
  double seconds = 0;
  std::string bound;  ///< "issue", "chain", "divide", "memory" or "library calls".
  TimeTerms terms;
  int threads = 1;
  std::string memory_level;  ///< "L2", "L3" or "DRAM": where the footprint fits.
  double footprint = 0;      ///< Compulsory bytes.
  /// The hardware's floor for the same work: its flops at the all-core peak and its compulsory
  /// bytes at the all-core bandwidth of the level holding them, whichever takes longer.
  double floor_seconds = 0;
  std::vector<std::string> notes;
};

/// Whether `source` runs OpenMP threads (a parallel or worksharing pragma; `omp simd` alone
/// is not).
bool runs_in_parallel(const std::string& source);

/// The prediction for one call whose static counts are `counts`.
TimePrediction predict_time(const StaticCounts& counts, const MachineModel& machine,
                            const Calibration& calibration, bool parallel);

Json to_json(const TimePrediction& prediction);

/// A prediction for one variant of a benchmark (or one kernel of a file) with the counts
/// behind it.
struct VariantPrediction : PredictionSubject {
  TimePrediction time;
  StaticCounts counts;
  std::string toolchain;
};

/// Predicts one call of `source` as `bench`'s kernel at `size` (0: the time size). CPU
/// benchmarks only (a CUDA benchmark's is predict_gpu_variant's, gpu_predict.h).
Result<VariantPrediction> predict_variant(const ExecutionContext& ctx, const Benchmark& bench,
                                          const std::string& variant, const std::string& source,
                                          long size, const MachineModel& machine,
                                          const Calibration& calibration);

/// A C++ file outside the suite and what is known of one call.
struct FilePredictionRequest {
  SourceFile source;
  std::string kernel;  ///< Only kernels of this name (plain or mangled); empty: every kernel.
  std::vector<std::optional<double>> args;  ///< Scalar arguments by position, where given.
};

/// Why a CUDA file without a launch gets no time prediction, and where its static counts are.
std::string cuda_file_refusal(const std::string& file);

/// Predicts one call of each kernel of `request.source` (a function of the file's own with a
/// loop), compiled where the file lies as this machine's compiler vectorizes it; trip counts
/// from the arguments given, otherwise assumed and said so. A CUDA file, a file that does not
/// compile and a file without a kernel (of that name) are Errors that say so.
Result<std::vector<VariantPrediction>> predict_file(const ExecutionContext& ctx,
                                                    const FilePredictionRequest& request,
                                                    const MachineModel& machine,
                                                    const Calibration& calibration);

Json to_json(const VariantPrediction& prediction);

/// A few lines for people (the loop's analyst reads the same).
std::string summarize(const VariantPrediction& prediction);

}  // namespace kopt
