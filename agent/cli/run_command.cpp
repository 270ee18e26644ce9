#include <cstdio>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/model_text.h"
#include "agent/cli/run_options.h"
#include "agent/cli/status_line.h"
#include "agent/llm/secrets.h"
#include "agent/loop/session.h"
#include "agent/record/run_record.h"

namespace kopt::cli {

namespace {

void print_outcome(const RunReport& report) {
  const Json& s = report.outcome.summary;
  const Json& best = s["best"];
  const Json& human = s["human"];
  fmt::print("run      {}\n", report.dir.string());
  fmt::print("stopped  {}: {}\n", report.outcome.rule, llm::redact_secrets(report.outcome.reason));
  fmt::print("original {:.4g} ms\n", s["original"].value("ms", 0.0));
  if (human.is_null())
    fmt::print("human    none in this benchmark\n");
  else if (human.value("speedup", 0.0) > 0)
    fmt::print("human    {:.4g} ms, {:.2f}x [{:.2f}, {:.2f}]\n", human.value("ms", 0.0),
               human.value("speedup", 0.0), human.value("ci_low", 0.0),
               human.value("ci_high", 0.0));
  if (best.value("id", "") == "original")
    fmt::print("best     the original (no candidate was a significant win)\n");
  else
    fmt::print("best     {}: {:.4g} ms, {:.2f}x [{:.2f}, {:.2f}]\n", best.value("id", ""),
               best.value("ms", 0.0), best.value("speedup", 0.0), best.value("ci_low", 0.0),
               best.value("ci_high", 0.0));
  if (const Json& h = s["versus_human"]; h.is_object())
    fmt::print(
        "vs human {}: {:.4g} ms against the human's {:.4g} ms, {:.2f}x [{:.2f}, {:.2f}] in one "
        "alternated evaluation\n",
        h.value("status", ""), h.value("ms", 0.0), h.value("baseline_ms", 0.0),
        h.value("speedup", 0.0), h.value("ci_low", 0.0), h.value("ci_high", 0.0));
  const Json& usage = s["usage"];
  fmt::print("tokens   {} in, {} out in {} model calls\n", usage.value("input_tokens", 0),
             usage.value("output_tokens", 0), usage.value("calls", 0));
}

int finish(const Result<RunReport>& report, const std::string& command) {
  if (!report) {
    std::fprintf(stderr, "kopt %s: %s\n", command.c_str(),
                 llm::redact_secrets(report.error().message).c_str());
    return kExitFailed;
  }
  print_outcome(*report);
  if (!report->outcome.interrupted()) return kExitOk;
  std::fprintf(stderr, "kopt %s: the run is %s; `kopt resume %s` continues it\n", command.c_str(),
               report->outcome.rule.c_str(), report->dir.filename().c_str());
  return exit_code(report->outcome);
}

// With --verbose, the model's answers as they are written.
ModelTextFn model_text_for(const Args& args, std::optional<ModelTextPrinter>& printer,
                           StatusLine& status) {
  if (!args.flag("verbose")) return {};
  printer.emplace(status);
  return [&printer](const std::string& role, std::string_view delta) { (*printer)(role, delta); };
}

int run_run(const Args& args) {
  RunConfig config = read_run_config(args, args.get("BENCH"));
  StatusLine status;
  std::optional<ModelTextPrinter> printer;
  auto report = start_run(
      config, runs_root(args),
      [&](const std::string& line) {
        status.update("kopt run " + config.benchmark + " · " + line);
      },
      model_text_for(args, printer, status));
  printer.reset();
  status.clear();
  return finish(report, "run");
}

int run_resume(const Args& args) {
  const std::filesystem::path dir = run_dir(args);
  StatusLine status;
  std::optional<ModelTextPrinter> printer;
  auto report = resume_run(
      dir, [&](const std::string& line) { status.update("kopt resume · " + line); },
      model_text_for(args, printer, status),
      [&](const std::string& notice) { status.print_above("kopt resume: " + notice); });
  printer.reset();
  status.clear();
  return finish(report, "resume");
}

const OptionSpec kVerbose = {
    "--verbose", "Show the model's answers as they are written (streamed where it can)", "", true};

}  // namespace

CommandSpec run_command() {
  std::vector<OptionSpec> options = {{"BENCH", "Benchmark name or folder", "", false, true}};
  for (auto& o : run_options()) options.push_back(o);
  options.push_back(kVerbose);
  return {"run", "Run the optimization loop on a benchmark", options, run_run};
}

CommandSpec resume_command() {
  return {"resume",
          "Continue an interrupted run, losing nothing it recorded",
          {{"RUN", "Run folder, name or id", "", false, true},
           {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"},
           kVerbose},
          run_resume};
}

}  // namespace kopt::cli
