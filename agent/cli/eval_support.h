// What the commands that run candidate code share: choosing the benchmark, the sandbox
// decision, the evaluator, and the variant to evaluate.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/cli/command.h"
#include "tools/benchmark/benchmark.h"
#include "tools/eval/evaluator.h"

namespace kopt::cli {

/// Options every evaluating command takes: --suite, --no-sandbox.
std::vector<OptionSpec> evaluator_options();

/// Loads the benchmark named by the BENCH argument; throws UsageError with the reason.
Benchmark load_benchmark_arg(const Args& args, const std::string& name);

/// Throws UsageError when `bench` is a whole program, for a command that needs a kernel
/// function (profile, roofline).
void refuse_program(const Benchmark& bench);

/// The runner and evaluator for this invocation. Refuses (throws UsageError) when bubblewrap
/// is unusable and --no-sandbox was not given.
class EvaluatorSession {
 public:
  explicit EvaluatorSession(const Args& args);
  LocalEvaluator& evaluator() { return *evaluator_; }

 private:
  std::unique_ptr<ProcessRunner> runner_;
  std::unique_ptr<LocalEvaluator> evaluator_;
};

/// The source and label of a variant: "original", "human" or a file path.
struct Variant {
  std::string label;
  std::string source;
};
/// Reads a variant; a file must be a regular file of at most 1 MiB (UsageError otherwise).
Variant load_variant(const Benchmark& bench, const std::string& variant);

}  // namespace kopt::cli
