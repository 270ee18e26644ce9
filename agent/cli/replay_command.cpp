#include <cstdio>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/run_options.h"
#include "agent/cli/status_line.h"
#include "agent/loop/session.h"
#include "agent/record/benchmark_snapshot.h"
#include "agent/report/run_view.h"

namespace kopt::cli {

namespace {

constexpr const char* kReplayFormat = "kopt-replay/1";

std::string speedup_text(const CandidateVerdict& v) {
  return v.speedup > 0 ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", v.speedup, v.ci_low, v.ci_high)
                       : v.status;
}

// The benchmark to re-measure with: the one the run was made with, as a replay finds it. A
// record without a copy of a benchmark that has changed since is re-measured with the changed
// one, as before copies were kept, and a warning says so.
Benchmark recorded_bench(const Args& args, const RunView& view) {
  const Json& recorded = json_member(view.info, "benchmark");
  const std::string name = json_text(recorded, "name");
  Benchmark suite_copy = load_benchmark_arg(args, json_text(recorded, "dir"));
  auto bench = recorded_benchmark(view.dir, name, json_text(recorded, "hash"), suite_copy);
  if (!bench && has_benchmark_snapshot(view.dir, name)) throw UsageError{bench.error().message};
  if (!bench) {
    std::fprintf(stderr, "kopt replay: warning: %s: re-measured with the suite's copy\n",
                 bench.error().message.c_str());
    return suite_copy;
  }
  if (!bench->why_recorded_copy.empty())
    std::fprintf(stderr, "kopt replay: %s; re-measured with the run's recorded copy (%s)\n",
                 bench->why_recorded_copy.c_str(), bench->bench.dir.c_str());
  return std::move(bench->bench);
}

// Rebuilds, re-checks and re-times every recorded candidate and compares the measurements.
int reexecute(const Args& args, const RunView& view) {
  Benchmark bench = recorded_bench(args, view);
  EvaluatorSession session(args);
  const bool json = args.flag("json");
  if (!json)
    fmt::print("{:<8} {:<12} {:<24} {:<12} {:<24} {}\n", "CAND", "RECORDED", "", "NOW", "",
               "AGREES");
  int disagreements = 0;
  Json rows = Json::array();
  StatusLine status;
  for (const auto& c : view.candidates) {
    if (!c.evaluated || c.source.empty()) continue;
    EvalRequest request;
    request.source = c.source;
    request.label = c.id;
    request.timing.budget_seconds = args.get_double("timing-budget", 0, 86400);
    Evaluation e = session.evaluator().evaluate(bench, request, [&](const std::string& stage) {
      status.update(fmt::format("kopt replay --reexecute: {} {}...", c.id, stage));
    });
    status.clear();
    CandidateVerdict now = read_verdict(to_json(e));
    const bool same_status = now.status == c.verdict.status;
    const bool within = c.verdict.speedup <= 0 ||
                        (now.speedup >= c.verdict.ci_low && now.speedup <= c.verdict.ci_high);
    const bool agrees = same_status && within;
    disagreements += !agrees;
    const std::string why =
        agrees ? "" : (same_status ? "speedup outside the recorded interval" : "verdict changed");
    rows.push_back({{"candidate", c.id},
                    {"recorded",
                     {{"status", c.verdict.status},
                      {"speedup", c.verdict.speedup},
                      {"ci_low", c.verdict.ci_low},
                      {"ci_high", c.verdict.ci_high}}},
                    {"now",
                     {{"status", now.status},
                      {"speedup", now.speedup},
                      {"ci_low", now.ci_low},
                      {"ci_high", now.ci_high}}},
                    {"agrees", agrees},
                    {"why", why}});
    if (!json)
      fmt::print("{:<8} {:<12} {:<24} {:<12} {:<24} {}\n", c.id, c.verdict.status,
                 speedup_text(c.verdict), now.status, speedup_text(now), agrees ? "yes" : why);
  }
  if (json)
    fmt::print("{}\n", dump_json({{"format", kReplayFormat},
                                  {"run", view.dir.filename().string()},
                                  {"mode", "reexecute"},
                                  {"candidates", rows},
                                  {"disagreements", disagreements}},
                                 2));
  else
    fmt::print("{} candidates re-measured, {} disagree with the record\n", view.candidates.size(),
               disagreements);
  return 0;
}

// The replay's outcome as JSON: verified, or where it diverged.
void print_replay_json(const std::filesystem::path& dir, const Result<ReplayReport>& report) {
  Json doc = {{"format", kReplayFormat}, {"run", dir.filename().string()}, {"mode", "replay"}};
  if (!report) {
    doc["verified"] = false;
    doc["error"] = report.error().message;
  } else {
    doc["verified"] = report->divergence.empty();
    doc["events"] = report->events;
    doc["divergence"] = report->divergence;
    doc["best"] = report->outcome.state.best_id;
    doc["rule"] = report->outcome.rule;
  }
  fmt::print("{}\n", dump_json(doc, 2));
}

int run_replay(const Args& args) {
  const std::filesystem::path dir = run_dir(args);
  if (args.flag("reexecute")) return reexecute(args, open_run_view(dir));
  StatusLine status;
  auto report = replay_run(
      dir, [&](const std::string& line) { status.update("kopt replay · " + line); },
      [&](const std::string& notice) { status.print_above("kopt replay: " + notice); });
  status.clear();
  if (args.flag("json")) {
    print_replay_json(dir, report);
    return report && report->divergence.empty() ? kExitOk : kExitFailed;
  }
  if (!report) {
    std::fprintf(stderr, "kopt replay: cannot replay %s: %s\n", dir.filename().c_str(),
                 report.error().message.c_str());
    return kExitFailed;
  }
  if (!report->divergence.empty()) {
    fmt::print("replay DIVERGED: {}\n", report->divergence);
    return kExitFailed;
  }
  fmt::print("replay verified: {} events identical to the record apart from times; best {} ({})\n",
             report->events, report->outcome.state.best_id, report->outcome.rule);
  return 0;
}

}  // namespace

CommandSpec replay_command() {
  std::vector<OptionSpec> options = {
      {"RUN", "Run folder, name or id", "", false, true},
      {"--reexecute", "Rebuild, re-check and re-time every candidate and compare with the record",
       "", true},
      {"--timing-budget", "Seconds each re-timing's paired blocks may take after the warm-up",
       "10"},
      {"--json", "Print the outcome as JSON (kopt-replay/1)", "", true},
      {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"}};
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"replay",
          "Re-run a run's loop on its recorded model answers and tool results, and verify it",
          options, run_replay};
}

}  // namespace kopt::cli
