// kopt compare DIR: a campaign's results, per benchmark x model x strategy over its seeds, and
// per model x strategy over its benchmarks.
#include <algorithm>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/experiment.h"
#include "agent/report/campaign_view.h"

namespace kopt::cli {

namespace {

std::string number_or_dash(const Json& v, const char* format) {
  return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : "-";
}

// The width of the widest value of `field` in `rows`, at least `least`.
size_t column_width(const Json& rows, const char* field, size_t least) {
  for (const Json& r : rows) least = std::max(least, r.value(field, "").size());
  return least;
}

void print_tables(const Json& rows, const Json& totals) {
  const size_t bench = column_width(rows, "benchmark", 18), model = column_width(rows, "llm", 28);
  fmt::print("{:<{}} {:<{}} {:<8} {:>5} {:>9} {:>22} {:>7} {:>6} {:>11} {:>8} {:>8} {:>7}\n",
             "BENCHMARK", bench, "MODEL", model, "STRATEGY", "RUNS", "MEDIAN", "TOP [CI]", "HUMAN",
             "SHARE", "OK/FAST/ALL", "TOKENS", "COST", "WALL");
  for (const Json& r : rows) {
    const Json& top = r["top"];
    const std::string top_text =
        top.is_object() ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", top.value("speedup", 0.0),
                                      top.value("ci_low", 0.0), top.value("ci_high", 0.0))
                        : "-";
    fmt::print(
        "{:<{}} {:<{}} {:<8} {:>5} {:>9} {:>22} {:>7} {:>6} {:>11} {:>7.1f}k {:>7.2f}$ {:>6.0f}s\n",
        r["benchmark"].get<std::string>(), bench, r["llm"].get<std::string>(), model,
        r["strategy"].get<std::string>(),
        fmt::format("{}/{}", r["finished"].get<int>(), r["runs"].get<int>()),
        number_or_dash(r["median_best_speedup"], "{:.2f}x"), top_text,
        number_or_dash(r["median_human_speedup"], "{:.2f}x"),
        r["median_human_share"].is_number()
            ? fmt::format("{:.0f}%", 100 * r["median_human_share"].get<double>())
            : "-",
        fmt::format("{}/{}/{}", r["correct"].get<int>(), r["faster"].get<int>(),
                    r["candidates"].get<int>()),
        r["tokens"].get<int64_t>() / 1000.0, r["cost_usd"].get<double>(),
        r["wall_s"].get<double>());
  }
  fmt::print("\n{:<{}} {:<8} {:>10} {:>14} {:>14}\n", "MODEL", model, "STRATEGY", "BENCHMARKS",
             "GEOMEAN BEST", "REACHED HUMAN");
  for (const Json& t : totals)
    fmt::print("{:<{}} {:<8} {:>10} {:>14} {:>14}\n", t["llm"].get<std::string>(), model,
               t["strategy"].get<std::string>(), t["benchmarks"].get<int>(),
               number_or_dash(t["geomean_best_speedup"], "{:.2f}x"),
               fmt::format("{} of {}", t["reached_human"].get<int>(),
                           t["benchmarks_with_human"].get<int>()));
}

int run_compare(const Args& args) {
  const std::filesystem::path folder = args.get("DIR");
  if (!std::filesystem::is_directory(folder))
    throw UsageError{folder.string() + " is not a campaign folder"};
  auto lines = read_index(folder);
  if (!lines) throw UsageError{lines.error().message};
  if (lines->empty())
    throw UsageError{folder.string() + " has no index.jsonl entries (kopt campaign writes them)"};
  const Json comparison = compare_campaign(latest_per_cell(*lines));
  if (args.flag("json")) {
    fmt::print("{}\n", dump_json(comparison, 2));
    return kExitOk;
  }
  print_tables(comparison["rows"], comparison["models"]);
  fmt::print(
      "\nMEDIAN: the median over seeds of each run's best speedup over the original; TOP: the "
      "best run's, with its interval; SHARE: log(best) / log(human), the median over seeds; "
      "REACHED HUMAN: benchmarks whose best was not significantly slower than the human version "
      "head to head in at least half of their runs.\n");
  return kExitOk;
}

}  // namespace

CommandSpec compare_command() {
  return {"compare",
          "Compare the runs of a campaign folder: per benchmark, model and strategy, and per "
          "model and strategy",
          {{"DIR", "Campaign folder (kopt campaign prints it)", "", false, true},
           {"--json", "Print the tables as JSON", "", true}},
          run_compare};
}

}  // namespace kopt::cli
