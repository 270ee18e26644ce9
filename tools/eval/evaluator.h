// The verifier: a candidate kernel goes in, a verdict that cannot be fooled comes out.
// Build (sandboxed, cached, symbol policy), check against the original on every check size
// with fresh seeds, time against a baseline with honest statistics, place on the roofline.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/build.h"
#include "tools/eval/context.h"
#include "tools/eval/evaluation.h"
#include "tools/eval/timing.h"

namespace kopt {

/// What to evaluate.
struct EvalRequest {
  std::string source;  ///< The candidate kernel file.
  std::string label;   ///< How records and tables name it.
  bool time = true;    ///< False: build and check only.
  TimingOptions timing;
  /// Seeds the draw of check and timing seeds (for reproducible evaluations); drawn from the
  /// system's entropy when absent.
  std::optional<uint64_t> seed;
  /// Times the candidate against this kernel source instead of the original (the check is
  /// still against the original): one alternated evaluation against, say, the human version.
  std::optional<std::string> baseline_source;
  std::string baseline_label = "original";  ///< How the verdict names the baseline.
};

/// Receives "build", "check", "time" as the evaluation moves on.
using ProgressFn = std::function<void(const std::string& stage)>;

/// Where evaluations run: locally, or later on a cluster scheduler.
class EvaluationExecutor {
 public:
  virtual ~EvaluationExecutor() = default;
  /// Evaluates one candidate of a benchmark.
  virtual Evaluation evaluate(const Benchmark& bench, const EvalRequest& request,
                              const ProgressFn& progress) = 0;
  /// Builds without evaluating (the optimizer's compile tool).
  virtual BuildOutcome build(const Benchmark& bench, const std::string& source) = 0;
};

/// Runs evaluations on this machine.
class LocalEvaluator : public EvaluationExecutor {
 public:
  explicit LocalEvaluator(ExecutionContext ctx) : ctx_(std::move(ctx)), builder_(ctx_) {}

  Evaluation evaluate(const Benchmark& bench, const EvalRequest& request,
                      const ProgressFn& progress) override;
  BuildOutcome build(const Benchmark& bench, const std::string& source) override;

  const ExecutionContext& context() const { return ctx_; }

 private:
  ExecutionContext ctx_;
  Builder builder_;
};

}  // namespace kopt
