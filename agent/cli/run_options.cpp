#include "agent/cli/run_options.h"

#include "agent/record/run_record.h"

namespace kopt::cli {

std::vector<OptionSpec> run_options() {
  return {
      {"--llm", "Model backend: openai:MODEL, anthropic:MODEL, local, replay:RUN, exec:CMD, manual",
       "local", false, false, "KOPT_LLM"},
      {"--iterations", "Iterations at most", "5"},
      {"--candidates", "Optimizer attempts per iteration", "1"},
      {"--seed", "Seed of model sampling", "1"},
      {"--target-speedup", "Stop once the best candidate is this much faster than the original",
       "0"},
      {"--roofline-fraction",
       "Stop once the best reaches this fraction of its roofline bound (0: never)", "0"},
      {"--budget-tokens", "Stop before spending more tokens than this (0: no limit)", "0"},
      {"--budget-usd", "Stop before spending more than this many US dollars (0: no limit)", "0"},
      {"--patience", "Stop after this many iterations without a significant gain", "3"},
      {"--timing-budget",
       "Seconds each evaluation's paired timing blocks may take after the warm-up", "10"},
      {"--temperature", "Sampling temperature", "0.2"},
      {"--max-tokens", "Most tokens per model answer", "4096"},
      {"--edit-format",
       "How the optimizer hands in a kernel: file, edits (SEARCH/REPLACE blocks) or auto "
       "(whole files)",
       "auto"},
      {"--strategy",
       "How candidates are asked for: marco (analyst and optimizer with tools), direct (one "
       "prompt, no tools), guided (one knowledge-base technique per attempt) or auto (guided for "
       "the local model, marco otherwise)",
       "auto"},
      {"--promotion",
       "How a significant win over the original replaces an earlier best: head-to-head (timed "
       "against it in one alternated evaluation, kept when significantly faster) or interval (its "
       "interval over the original above the best's point estimate; the rule before head-to-head)",
       "head-to-head"},
      {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"},
      {"--suite", "Folder holding benchmark folders (default: kopt's own suite)", "", false, false,
       "KOPT_SUITE"},
      {"--no-sandbox", "Run candidate code without bubblewrap (recorded in run.json)", "", true}};
}

RunConfig read_run_config(const Args& args, const std::string& benchmark) {
  RunConfig c;
  c.benchmark = benchmark;
  c.suite = args.get("suite");
  c.llm = args.get("llm");
  c.iterations = static_cast<int>(args.get_int("iterations", 1, 100000));
  c.candidates = static_cast<int>(args.get_int("candidates", 1, 64));
  c.seed = static_cast<uint64_t>(args.get_int("seed", 0, Args::kMaxInt));
  c.target_speedup = args.get_double("target-speedup", 0, 1e6);
  c.roofline_fraction = args.get_double("roofline-fraction", 0, 1);
  c.budget_tokens = args.get_int("budget-tokens", 0, Args::kMaxInt);
  c.budget_usd = args.get_double("budget-usd", 0, 1e9);
  c.patience = static_cast<int>(args.get_int("patience", 1, 100000));
  c.timing_budget = args.get_double("timing-budget", 0, 86400);
  c.temperature = args.get_double("temperature", 0, 2);
  c.max_tokens = static_cast<int>(args.get_int("max-tokens", 1, 1000000));
  c.sandbox = !args.flag("no-sandbox");
  c.edit_format = args.get("edit-format");
  if (c.edit_format == "auto") c.edit_format = default_edit_format();
  if (c.edit_format != "file" && c.edit_format != "edits")
    throw UsageError{"--edit-format must be file, edits or auto"};
  c.strategy = args.get("strategy");
  if (c.strategy == "auto") c.strategy = default_strategy(c.llm);
  if (!known_strategy(c.strategy))
    throw UsageError{"--strategy must be marco, direct, guided or auto"};
  c.promotion = args.get("promotion");
  if (c.promotion != "head-to-head" && c.promotion != "interval")
    throw UsageError{"--promotion must be head-to-head or interval"};
  return c;
}

int exit_code(const RunOutcome& outcome) {
  if (!outcome.interrupted()) return kExitOk;
  return outcome.rule == "failed" ? kExitFailed : kExitInterrupted;
}

std::string runs_root(const Args& args) {
  return args.has("out") ? args.get("out") : default_runs_root().string();
}

std::filesystem::path run_dir(const Args& args) {
  auto dir = find_run(args.get("RUN"), runs_root(args));
  if (!dir) throw UsageError{dir.error().message};
  return *dir;
}

RunView open_run_view(const std::filesystem::path& dir) {
  auto view = load_run_view(dir);
  if (!view) throw UsageError{view.error().message};
  return std::move(*view);
}

}  // namespace kopt::cli
