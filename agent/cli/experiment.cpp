#include "agent/cli/experiment.h"

#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "util/files.h"

namespace kopt::cli {

namespace {

constexpr const char* kIndexFile = "index.jsonl";

// How many candidates of a summary were correct, and how many a significant win.
std::pair<int, int> correct_and_faster(const Json& summary) {
  int correct = 0, faster = 0;
  for (const Json& c : summary.value("candidates", Json::array())) {
    const std::string status = c.is_object() ? c.value("status", "") : "";
    correct += status == "faster" || status == "not-faster" || status == "slower";
    faster += status == "faster";
  }
  return {correct, faster};
}

// The speedup fields of a verdict in a summary (best, human, versus_human), or null.
Json speedup_of(const Json& verdict) {
  if (!verdict.is_object() || verdict.value("speedup", 0.0) <= 0) return nullptr;
  const double speedup = verdict.value("speedup", 0.0);
  return {{"speedup", speedup},
          {"ci_low", verdict.value("ci_low", speedup)},
          {"ci_high", verdict.value("ci_high", speedup)},
          {"status", verdict.value("status", "")},
          {"id", verdict.value("id", "")}};
}

}  // namespace

std::string Cell::label() const {
  return fmt::format("{} · {} · {} · seed {}", benchmark, llm, strategy, seed);
}

bool Cell::operator==(const Cell& o) const {
  return benchmark == o.benchmark && llm == o.llm && strategy == o.strategy && seed == o.seed;
}

std::vector<Cell> expand_matrix(const std::vector<std::string>& benchmarks,
                                const std::vector<std::string>& llms,
                                const std::vector<std::string>& strategies,
                                const std::vector<uint64_t>& seeds) {
  std::vector<Cell> cells;
  for (const auto& b : benchmarks)
    for (const auto& l : llms)
      for (const auto& st : strategies)
        for (uint64_t seed : seeds) cells.push_back({b, l, st, seed});
  return cells;
}

Json index_line(const Cell& cell, const std::string& run, const std::string& status,
                const std::string& reason, const Json& summary, double wall_s) {
  Json line = {{"format", kIndexFormat}, {"benchmark", cell.benchmark},
               {"llm", cell.llm},        {"strategy", cell.strategy},
               {"seed", cell.seed},      {"run", run},
               {"status", status},       {"reason", reason},
               {"wall_s", wall_s}};
  if (!summary.is_object()) return line;
  const auto [correct, faster] = correct_and_faster(summary);
  const Json usage = summary.value("usage", Json::object());
  line["original_ms"] = summary.value("original", Json::object()).value("ms", 0.0);
  line["best"] = speedup_of(summary.value("best", Json()));
  line["human"] = speedup_of(summary.value("human", Json()));
  line["versus_human"] = speedup_of(summary.value("versus_human", Json()));
  line["candidates"] = summary.value("candidates", Json::array()).size();
  line["correct"] = correct;
  line["faster"] = faster;
  line["input_tokens"] = usage.value("input_tokens", 0);
  line["output_tokens"] = usage.value("output_tokens", 0);
  line["tokens_estimated"] = usage.value("tokens_estimated", false);
  line["cost_usd"] = usage.value("cost_usd", 0.0);
  return line;
}

Result<std::vector<Json>> read_index(const std::filesystem::path& campaign) {
  const auto path = campaign / kIndexFile;
  std::vector<Json> lines;
  if (!std::filesystem::exists(path)) return lines;
  auto text = read_file(path);
  if (!text) return text.error();
  std::istringstream in(*text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::string where = path.string() + " line " + std::to_string(number);
    auto json = parse_json(line, where);
    if (!json) return json.error();
    if (!json->is_object() || json->value("format", Json()) != Json(kIndexFormat) ||
        !json->value("benchmark", Json()).is_string() || !json->value("llm", Json()).is_string() ||
        !json->value("strategy", Json()).is_string() ||
        !json->value("seed", Json()).is_number_unsigned())
      return fail(where + ": not a line of a kopt campaign index (" + kIndexFormat + ")");
    lines.push_back(std::move(*json));
  }
  return lines;
}

Status append_index(const std::filesystem::path& campaign, const Json& line) {
  const auto path = campaign / kIndexFile;
  std::ofstream out(path, std::ios::app);
  out << dump_json(line) << '\n';
  out.flush();
  if (!out) return fail("cannot append to " + path.string());
  return {};
}

Cell cell_of(const Json& line) {
  return {line.value("benchmark", ""), line.value("llm", ""), line.value("strategy", ""),
          line.value("seed", uint64_t{0})};
}

std::vector<Json> latest_per_cell(const std::vector<Json>& lines) {
  std::vector<Json> latest;
  for (const Json& line : lines) {
    const Cell cell = cell_of(line);
    auto same = std::find_if(latest.begin(), latest.end(),
                             [&](const Json& kept) { return cell_of(kept) == cell; });
    if (same == latest.end())
      latest.push_back(line);
    else
      *same = line;
  }
  return latest;
}

}  // namespace kopt::cli
