// `kopt roofline`: a variant of a benchmark placed on a machine's roofline by one of three
// methods — `measured` (counters or analytic work over measured time), `static` (the compiled
// code, never run) or `llm` (the seed paper's zero-shot prompt, answered by a model; the call
// itself is made by the caller, since tools/ does not reach the LLM backends).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/evaluator.h"
#include "tools/roofline/counters.h"
#include "util/result.h"

namespace kopt {

/// The machine a roofline is drawn for.
struct RooflineMachine {
  Peaks peaks;
  std::string description;  ///< Specs in words, for people and for the llm prompt.
  bool gpu = false;
};

/// "host" (the measured machine model, cached) or a GPU of the hardware table.
Result<RooflineMachine> roofline_machine(const std::string& hardware, const ExecutionContext& ctx);

/// A classified variant.
struct RooflineReport {
  std::string benchmark, variant, method, hardware;
  Peaks peaks;
  KernelCounters counters;  ///< Whole call (summed over kernels on a GPU).
  RooflinePoint point;
  std::vector<RooflinePoint> kernels;  ///< GPU: each kernel.
  Json detail = Json::object();        ///< Method-specific evidence.
  std::vector<std::string> notes;
};

/// What to classify and how.
struct RooflineRequest {
  std::string method = "measured";  ///< "measured" or "static" (llm: see roofline_llm.h).
  std::string variant = "original";
  std::string source;
  long size = 0;  ///< 0: the manifest's time size.
};

/// Runs the measured or static method for `bench` on `machine`.
Result<RooflineReport> classify_variant(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                        const Benchmark& bench, const RooflineRequest& request,
                                        const RooflineMachine& machine,
                                        const std::string& hardware);

/// The compact text for the model: class, intensities against balance points, achieved
/// fractions and headroom.
std::string summarize(const RooflineReport& report);

Json to_json(const RooflineReport& report);

}  // namespace kopt
