// The `measured` roofline method: on the CPU, the manifest's analytic work (flops, bytes, and
// integer operations where the manifest states them) over the measured median call time; on
// a GPU, the CUPTI range profiler's counters per kernel (tools/profile/gpu_profile.h).
#pragma once

#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/evaluator.h"
#include "tools/roofline/counters.h"
#include "util/result.h"

namespace kopt {

/// Counters of one measured variant: the whole call and, on a GPU, each kernel.
struct MeasuredWork {
  KernelCounters total;
  std::vector<KernelCounters> kernels;
  int reps = 0;                ///< Timed calls behind the median.
  std::string source_of_work;  ///< "manifest" or "cupti range profiler".
};

/// The manifest's work per call at `size`: flops in the kernel's precision (fp32 when its
/// header declares float and no double), bytes, and work.intops when the manifest has it.
Result<KernelCounters> manifest_work(const Benchmark& bench, long size);

/// Builds `source`, times it at `size` (0: the manifest's time size) and fills in the time.
Result<MeasuredWork> measure_cpu_work(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                      const Benchmark& bench, const std::string& source, long size);

/// Builds `source` and collects GPU counters; fails with the reason ("needs a GPU: ...").
Result<MeasuredWork> measure_gpu_work(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                      const Benchmark& bench, const std::string& source, long size);

}  // namespace kopt
