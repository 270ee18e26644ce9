// The options of commands that start runs (run, campaign), and reading them into a RunConfig.
#pragma once

#include <vector>

#include "agent/cli/command.h"
#include "agent/loop/config.h"

namespace kopt::cli {

/// --llm, --iterations, --candidates, --seed, --target-speedup, --roofline-fraction,
/// --budget-tokens, --budget-usd,
/// --patience, --timing-budget, --temperature, --out, --suite, --no-sandbox.
std::vector<OptionSpec> run_options();

/// The configuration those options describe, for `benchmark`.
RunConfig read_run_config(const Args& args, const std::string& benchmark);

/// The folder runs go to: --out, else $KOPT_RUNS, else ./runs.
std::string runs_root(const Args& args);

}  // namespace kopt::cli
