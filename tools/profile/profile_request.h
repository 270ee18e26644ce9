// One entry point for `kopt profile` and the loop's profile tool: CPU benchmarks go to the CPU
// profiler (perf, else callgrind), CUDA benchmarks to CUPTI PC sampling; either way the result
// is a compact text for the model and the full data for the record, or a reason.
#pragma once

#include <string>

#include <nlohmann/json.hpp>
#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/evaluator.h"

#include "tools/profile/cpu_profiler.h"
#include "util/json.h"

namespace kopt {

struct ProfileOutcome {
  bool ok = false;
  std::string failure;  ///< One line when !ok.
  std::string text;     ///< The ranked summary for the model (or the failure).
  Json data;            ///< kopt-profile/1 (CPU) or the GPU attribution.
};

/// Profiles `source` as the kernel file of `bench`, named `label` in the text.
ProfileOutcome profile_variant(EvaluationExecutor& executor, const ExecutionContext& ctx,
                               const Benchmark& bench, const std::string& source,
                               const std::string& label, const CpuProfileOptions& options,
                               int top_lines = 8);

}  // namespace kopt
