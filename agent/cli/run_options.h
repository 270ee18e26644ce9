// The options of commands that start runs (run, campaign), and reading them into a RunConfig.
#pragma once

#include <vector>

#include "agent/cli/command.h"
#include "agent/loop/config.h"
#include "agent/loop/orchestrator.h"
#include "agent/report/run_view.h"

namespace kopt::cli {

/// --llm, --iterations, --candidates, --seed, --target-speedup, --roofline-fraction,
/// --budget-tokens, --budget-usd,
/// --patience, --timing-budget, --temperature, --max-tokens, --edit-format, --strategy,
/// --promotion, --out, --suite, --no-sandbox.
std::vector<OptionSpec> run_options();

/// The configuration those options describe, for `benchmark`.
RunConfig read_run_config(const Args& args, const std::string& benchmark);

/// The exit status of a run that ended: kExitOk when a stopping rule ended it,
/// kExitInterrupted when its model failed (resumable), kExitFailed when the model refused.
int exit_code(const RunOutcome& outcome);

/// The folder runs go to: --out, else $KOPT_RUNS, else ./runs.
std::string runs_root(const Args& args);

/// The folder of the run the RUN argument names under runs_root(args); a UsageError if none.
std::filesystem::path run_dir(const Args& args);

/// A run folder read for inspection; a UsageError if it cannot be read.
RunView open_run_view(const std::filesystem::path& dir);

}  // namespace kopt::cli
