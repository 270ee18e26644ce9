#include <cstdio>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/run_options.h"
#include "agent/cli/status_line.h"
#include "agent/llm/secrets.h"
#include "agent/loop/session.h"
#include "tools/benchmark/benchmark.h"

namespace kopt::cli {

namespace {

std::string cell(const Json& v) {
  if (!v.is_object() || v.value("speedup", 0.0) <= 0) return "-";
  return fmt::format("{:.4g} ms {:.2f}x [{:.2f}, {:.2f}]", v.value("ms", 0.0),
                     v.value("speedup", 0.0), v.value("ci_low", v.value("speedup", 0.0)),
                     v.value("ci_high", v.value("speedup", 0.0)));
}

// The best's speedup over the human version, timed head to head at the end of the run.
std::string versus_human(const Json& v) {
  if (!v.is_object() || v.value("speedup", 0.0) <= 0) return "-";
  return fmt::format("{:.2f}x", v.value("speedup", 0.0));
}

int run_campaign(const Args& args) {
  const std::filesystem::path folder = args.get("DIR");
  std::vector<Benchmark> benches;
  for (auto& bench : list_benchmarks(folder)) {
    if (!bench) throw UsageError{bench.error().message};
    benches.push_back(std::move(*bench));
  }
  if (benches.empty()) throw UsageError{"no benchmarks under " + folder.string()};
  const std::string header = fmt::format("{:<18} {:>12} {:>30} {:>30} {:>8}  {}", "BENCHMARK",
                                         "ORIGINAL", "HUMAN", "BEST FOUND", "VS HUMAN", "RUN");
  std::vector<std::string> rows;
  int failed = 0;
  for (const auto& bench : benches) {
    RunConfig config = read_run_config(args, bench.dir.string());
    StatusLine status;
    auto report = start_run(config, runs_root(args), [&](const std::string& line) {
      status.update("kopt campaign " + bench.name + " · " + line);
    });
    status.clear();
    if (!report) {
      ++failed;
      rows.push_back(fmt::format("{:<18} failed: {}", bench.name,
                                 llm::redact_secrets(report.error().message)));
    } else if (report->outcome.interrupted()) {
      ++failed;
      rows.push_back(fmt::format("{:<18} {}: {} (kopt resume {})", bench.name, report->outcome.rule,
                                 llm::redact_secrets(report->outcome.reason),
                                 report->dir.filename().string()));
    } else {
      const Json& s = report->outcome.summary;
      rows.push_back(fmt::format(
          "{:<18} {:>9.4g} ms {:>30} {:>30} {:>8}  {}", bench.name, s["original"].value("ms", 0.0),
          s["human"].is_null() ? "no human version" : cell(s["human"]), cell(s["best"]),
          versus_human(s["versus_human"]), report->dir.filename().string()));
    }
    std::fprintf(stderr, "%s\n", rows.back().c_str());
  }
  fmt::print("{}\n", header);
  for (const auto& row : rows) fmt::print("{}\n", row);
  return failed ? kExitFailed : kExitOk;
}

}  // namespace

CommandSpec campaign_command() {
  std::vector<OptionSpec> options = {
      {"DIR", "Folder of benchmarks (every benchmark.json below it)", "", false, true}};
  for (auto& o : run_options())
    if (o.name != "--suite") options.push_back(o);
  return {"campaign",
          "Run the loop on every benchmark under a folder and compare with the human versions",
          options, run_campaign};
}

}  // namespace kopt::cli
