// Evaluating a whole-program candidate (manifest "kind": "program"): both sides built in the
// sandbox from fresh copies of the folder, each run checked by the program's own PASS line and/or
// the manifest's compare command against the original's run, then timed in alternated pairs of
// whole runs (original, candidate; candidate, original; ...) with the function kind's paired
// test. The verdict is marked strength::kProgram: DESIGN.md says what it does not cover.
#pragma once

#include <string>

#include "tools/eval/evaluator.h"

namespace kopt {

/// Builds, checks and times the program candidate `request.source` (a bundle of editable files,
/// program.h) against the original program, or against request.baseline_source; fills `e`.
void evaluate_program(const ExecutionContext& ctx, const Benchmark& bench,
                      const EvalRequest& request, const ProgressFn& progress, Evaluation& e);

/// Builds the program with `source`'s editable files (the optimizer's compile tool).
BuildOutcome build_program(const ExecutionContext& ctx, const Benchmark& bench,
                           const std::string& source);

}  // namespace kopt
