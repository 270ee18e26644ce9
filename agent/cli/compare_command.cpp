// kopt compare DIR: a campaign's results, per benchmark x model x strategy over its seeds, and
// per model x strategy over its benchmarks.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/experiment.h"

namespace kopt::cli {

namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double speedup(const Json& line, const char* field) {
  const Json& v = line.value(field, Json());
  return v.is_object() ? v.value("speedup", 0.0) : 0;
}

// The share of the human version's speedup reached, on a log scale: log(best) / log(human),
// 1 when the best matches the human version, 0 when it is no faster than the original.
std::optional<double> human_share(double best, double human) {
  if (best <= 0 || human <= 1) return std::nullopt;
  return std::log(best) / std::log(human);
}

// Whether the best was not significantly slower than the human version, head to head.
bool reached_human(const Json& line) {
  const Json& v = line.value("versus_human", Json());
  return v.is_object() && v.value("status", "") != "slower" && v.value("speedup", 0.0) > 0;
}

// One row: a benchmark under one model and strategy, over its seeds.
struct Group {
  std::string benchmark, llm, strategy;
  std::vector<Json> runs;

  Json summary() const {
    std::vector<double> best, human, shares;
    int correct = 0, faster = 0, finished = 0, reached = 0, candidates = 0;
    int64_t tokens = 0;
    double cost = 0, wall = 0;
    Json top;  // The run with the highest best speedup, for its interval.
    for (const Json& r : runs) {
      finished += r.value("status", "") == "finished";
      if (r.value("status", "") != "finished") continue;
      best.push_back(std::max(speedup(r, "best"), 1.0));
      if (speedup(r, "human") > 0) human.push_back(speedup(r, "human"));
      if (auto s = human_share(best.back(), speedup(r, "human"))) shares.push_back(*s);
      correct += r.value("correct", 0);
      faster += r.value("faster", 0);
      candidates += r.value("candidates", 0);
      reached += reached_human(r);
      if (top.is_null() || speedup(r, "best") > speedup(top, "best")) top = r;
    }
    for (const Json& r : runs) {
      tokens += r.value("input_tokens", int64_t{0}) + r.value("output_tokens", int64_t{0});
      cost += r.value("cost_usd", 0.0);
      wall += r.value("wall_s", 0.0);
    }
    Json topbest = top.is_null() ? Json() : top.value("best", Json());
    return {{"benchmark", benchmark},
            {"llm", llm},
            {"strategy", strategy},
            {"runs", runs.size()},
            {"finished", finished},
            {"median_best_speedup", best.empty() ? Json() : Json(median(best))},
            {"top", topbest},
            {"median_human_speedup", human.empty() ? Json() : Json(median(human))},
            {"median_human_share", shares.empty() ? Json() : Json(median(shares))},
            {"reached_human", reached},
            {"candidates", candidates},
            {"correct", correct},
            {"faster", faster},
            {"tokens", tokens},
            {"cost_usd", cost},
            {"wall_s", wall}};
  }
};

std::vector<Group> group_runs(const std::vector<Json>& lines) {
  std::vector<Group> groups;
  for (const Json& line : lines) {
    const Cell c = cell_of(line);
    auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.benchmark == c.benchmark && g.llm == c.llm && g.strategy == c.strategy;
    });
    if (same == groups.end())
      same = groups.insert(groups.end(), {c.benchmark, c.llm, c.strategy, {}});
    same->runs.push_back(line);
  }
  return groups;
}

// Per model x strategy: the geometric mean of the benchmarks' median best speedups, and how
// many benchmarks reached the human version in at least half of their runs.
Json overall(const std::vector<Json>& rows) {
  std::map<std::pair<std::string, std::string>, std::vector<const Json*>> by;
  for (const Json& row : rows) by[{row["llm"], row["strategy"]}].push_back(&row);
  Json out = Json::array();
  for (const auto& [key, group] : by) {
    double log_sum = 0;
    int counted = 0, reached = 0, with_human = 0;
    for (const Json* row : group) {
      if (!(*row)["median_best_speedup"].is_number()) continue;
      log_sum += std::log((*row)["median_best_speedup"].get<double>());
      ++counted;
      if ((*row)["median_human_speedup"].is_number()) {
        ++with_human;
        reached += 2 * (*row)["reached_human"].get<int>() >= (*row)["finished"].get<int>();
      }
    }
    out.push_back({{"llm", key.first},
                   {"strategy", key.second},
                   {"benchmarks", counted},
                   {"geomean_best_speedup", counted ? Json(std::exp(log_sum / counted)) : Json()},
                   {"benchmarks_with_human", with_human},
                   {"reached_human", reached}});
  }
  return out;
}

std::string number_or_dash(const Json& v, const char* format) {
  return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : "-";
}

void print_tables(const Json& rows, const Json& totals) {
  fmt::print("{:<18} {:<28} {:<8} {:>5} {:>9} {:>22} {:>7} {:>6} {:>11} {:>8} {:>8} {:>7}\n",
             "BENCHMARK", "MODEL", "STRATEGY", "RUNS", "MEDIAN", "TOP [CI]", "HUMAN", "SHARE",
             "OK/FAST/ALL", "TOKENS", "COST", "WALL");
  for (const Json& r : rows) {
    const Json& top = r["top"];
    const std::string top_text =
        top.is_object() ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", top.value("speedup", 0.0),
                                      top.value("ci_low", 0.0), top.value("ci_high", 0.0))
                        : "-";
    fmt::print(
        "{:<18} {:<28} {:<8} {:>5} {:>9} {:>22} {:>7} {:>6} {:>11} {:>7.1f}k {:>7.2f}$ {:>6.0f}s\n",
        r["benchmark"].get<std::string>(), r["llm"].get<std::string>(),
        r["strategy"].get<std::string>(),
        fmt::format("{}/{}", r["finished"].get<int>(), r["runs"].size()),
        number_or_dash(r["median_best_speedup"], "{:.2f}x"), top_text,
        number_or_dash(r["median_human_speedup"], "{:.2f}x"),
        number_or_dash(r["median_human_share"], "{:.0%}"),
        fmt::format("{}/{}/{}", r["correct"].get<int>(), r["faster"].get<int>(),
                    r["candidates"].get<int>()),
        r["tokens"].get<int64_t>() / 1000.0, r["cost_usd"].get<double>(),
        r["wall_s"].get<double>());
  }
  fmt::print("\n{:<28} {:<8} {:>10} {:>14} {:>14}\n", "MODEL", "STRATEGY", "BENCHMARKS",
             "GEOMEAN BEST", "REACHED HUMAN");
  for (const Json& t : totals)
    fmt::print("{:<28} {:<8} {:>10} {:>14} {:>14}\n", t["llm"].get<std::string>(),
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
  Json rows = Json::array();
  for (const Group& g : group_runs(latest_per_cell(*lines))) rows.push_back(g.summary());
  const Json totals = overall(rows);
  if (args.flag("json")) {
    fmt::print("{}\n",
               dump_json({{"format", "kopt-compare/1"}, {"rows", rows}, {"models", totals}}, 2));
    return kExitOk;
  }
  print_tables(rows, totals);
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
