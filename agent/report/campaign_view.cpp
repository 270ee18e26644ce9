#include "agent/report/campaign_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "tools/eval/stats.h"

namespace kopt {

namespace {

double speedup(const Json& line, const char* field) {
  const Json& v = line.value(field, Json());
  return v.is_object() ? v.value("speedup", 0.0) : 0;
}

// The share of the human version's speedup reached, on a log scale: log(best) / log(human),
// 1 when the best matches the human version, 0 when it is no faster than the original; null
// without a human version faster than the original.
Json human_share(double best, double human) {
  if (best <= 0 || human <= 1) return nullptr;
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

  Json seeds() const {
    Json out = Json::array();
    for (const Json& r : runs)
      out.push_back({{"seed", r.value("seed", uint64_t{0})},
                     {"run", r.value("run", "")},
                     {"status", r.value("status", "")},
                     {"best_speedup", speedup(r, "best") > 0 ? Json(speedup(r, "best")) : Json()}});
    return out;
  }

  Json summary() const {
    std::vector<double> best, human, shares;
    int correct = 0, faster = 0, finished = 0, reached = 0, candidates = 0;
    int64_t tokens = 0;
    double cost = 0, wall = 0;
    Json top;  // The run with the highest best speedup, for its interval.
    for (const Json& r : runs) {
      tokens += r.value("input_tokens", int64_t{0}) + r.value("output_tokens", int64_t{0});
      cost += r.value("cost_usd", 0.0);
      wall += r.value("wall_s", 0.0);
      if (r.value("status", "") != "finished") continue;
      ++finished;
      best.push_back(std::max(speedup(r, "best"), 1.0));
      if (speedup(r, "human") > 0) human.push_back(speedup(r, "human"));
      if (Json s = human_share(best.back(), speedup(r, "human")); s.is_number())
        shares.push_back(s.get<double>());
      correct += r.value("correct", 0);
      faster += r.value("faster", 0);
      candidates += r.value("candidates", 0);
      reached += reached_human(r);
      if (top.is_null() || speedup(r, "best") > speedup(top, "best")) top = r;
    }
    return {{"benchmark", benchmark},
            {"llm", llm},
            {"strategy", strategy},
            {"runs", runs.size()},
            {"finished", finished},
            {"median_best_speedup", best.empty() ? Json() : Json(quantile(best, 0.5))},
            {"top", top.is_null() ? Json() : top.value("best", Json())},
            {"median_human_speedup", human.empty() ? Json() : Json(quantile(human, 0.5))},
            {"median_human_share", shares.empty() ? Json() : Json(quantile(shares, 0.5))},
            {"reached_human", reached},
            {"candidates", candidates},
            {"correct", correct},
            {"faster", faster},
            {"tokens", tokens},
            {"cost_usd", cost},
            {"wall_s", wall},
            {"seeds", seeds()}};
  }
};

std::vector<Group> group_runs(const std::vector<Json>& lines) {
  std::vector<Group> groups;
  for (const Json& line : lines) {
    const std::string bench = line.value("benchmark", ""), llm = line.value("llm", ""),
                      strategy = line.value("strategy", "");
    auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.benchmark == bench && g.llm == llm && g.strategy == strategy;
    });
    if (same == groups.end()) same = groups.insert(groups.end(), {bench, llm, strategy, {}});
    same->runs.push_back(line);
  }
  // By benchmark, model and strategy: the index is in the order runs finished, which runs side
  // by side (--jobs, Slurm) interleave.
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return std::tie(a.benchmark, a.llm, a.strategy) < std::tie(b.benchmark, b.llm, b.strategy);
  });
  return groups;
}

// Per model x strategy: the geometric mean of the benchmarks' median best speedups, and how
// many benchmarks reached the human version in at least half of their runs.
Json overall(const Json& rows) {
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

}  // namespace

Json compare_campaign(const std::vector<Json>& latest_index_lines) {
  Json rows = Json::array();
  for (const Group& g : group_runs(latest_index_lines)) rows.push_back(g.summary());
  Json models = overall(rows);
  return {{"format", kCompareFormat}, {"rows", std::move(rows)}, {"models", std::move(models)}};
}

}  // namespace kopt
