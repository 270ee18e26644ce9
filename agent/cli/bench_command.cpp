#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

std::vector<Benchmark> chosen_benchmarks(const Args& args) {
  std::vector<Benchmark> chosen;
  if (args.flag("all")) {
    const std::filesystem::path suite =
        args.has("suite") ? std::filesystem::path(args.get("suite")) : default_suite();
    auto found = list_benchmarks(suite);
    if (found.empty()) throw UsageError{"no benchmarks under " + suite.string()};
    for (auto& bench : found) {
      if (!bench) throw UsageError{bench.error().message};
      chosen.push_back(std::move(*bench));
    }
  }
  for (const auto& name : args.list("BENCH")) chosen.push_back(load_benchmark_arg(args, name));
  if (chosen.empty()) throw UsageError{"name a benchmark or pass --all"};
  return chosen;
}

std::string row(const Evaluation& e, bool markdown) {
  std::string original = "-", human = "-", speedup = "-", interval = "-", p = "-";
  if (e.timing && e.timing->ok) {
    const TimingOutcome& t = *e.timing;
    original = fmt::format("{:.3f}", t.baseline_spread.median * 1e3);
    human = fmt::format("{:.3f}", t.candidate_spread.median * 1e3);
    speedup = fmt::format("{:.2f}x", t.interval.speedup);
    interval = fmt::format("[{:.2f}, {:.2f}]", t.interval.low, t.interval.high);
    p = fmt::format("{:.1g}", t.p_value);
  }
  const std::string status = e.correct() ? e.status : e.status + ": " + e.reason;
  if (markdown)
    return fmt::format("| {} | {} | {} | {} | {} | {} | {} |", e.benchmark, original, human,
                       speedup, interval, p, status);
  return fmt::format("{:<20} {:>13} {:>11} {:>9} {:>16} {:>8}  {}", e.benchmark, original, human,
                     speedup, interval, p, status);
}

int run_bench(const Args& args) {
  std::vector<Benchmark> benches = chosen_benchmarks(args);
  const double budget = args.get_double("timing-budget", 0, 86400);
  EvaluatorSession session(args);
  const bool markdown = args.flag("markdown"), json = args.flag("json");
  if (!json) {
    if (markdown)
      fmt::print(
          "| benchmark | original (ms) | human (ms) | speedup | CI | p | verdict "
          "|\n|---|---:|---:|---:|---|---:|---|\n");
    else
      fmt::print("{:<20} {:>13} {:>11} {:>9} {:>16} {:>8}  {}\n", "BENCHMARK", "ORIGINAL (ms)",
                 "HUMAN (ms)", "SPEEDUP", "CI", "p", "VERDICT");
    std::fflush(stdout);
  }
  Json all = Json::array();
  int failures = 0;
  StatusLine status;
  for (const auto& bench : benches) {
    if (!bench.has_human) {  // Nothing to judge: said, and not a failure.
      if (json)
        all.push_back({{"benchmark", bench.name}, {"human", false}});
      else if (markdown)
        fmt::print("| {} | - | - | - | - | - | no human version |\n", bench.name);
      else
        fmt::print("{:<20} {:>13} {:>11} {:>9} {:>16} {:>8}  no human version\n", bench.name, "-",
                   "-", "-", "-", "-");
      continue;
    }
    EvalRequest request;
    request.source = load_variant(bench, "human").source;
    request.label = "human";
    request.timing.budget_seconds = budget;
    Evaluation e = session.evaluator().evaluate(bench, request, [&](const std::string& stage) {
      status.update(fmt::format("kopt bench {}: {}...", bench.name, stage));
    });
    status.clear();
    failures += e.status != verdict::kFaster;
    if (json)
      all.push_back(to_json(e));
    else
      fmt::print("{}\n", row(e, markdown));
    std::fflush(stdout);
  }
  if (json) std::cout << dump_json(all, 2) << "\n";
  return failures ? 1 : 0;
}

}  // namespace

CommandSpec bench_command() {
  std::vector<OptionSpec> options = {
      {"BENCH", "Benchmark names or folders", "", false, false, "", true},
      {"--all", "Every benchmark of the suite", "", true},
      {"--markdown", "Print a Markdown table", "", true},
      {"--json", "Print the evaluation documents as a JSON array", "", true},
      {"--timing-budget", "Seconds the timing stage may spend per benchmark after three rounds",
       "20"}};
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"bench", "Time the human version against the original: is it a significant win?", options,
          run_bench};
}

}  // namespace kopt::cli
