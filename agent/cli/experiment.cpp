#include "agent/cli/experiment.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "agent/llm/json_read.h"
#include "util/files.h"
#include "util/json.h"

extern char** environ;

namespace kopt::cli {

namespace {

// How many candidates of a summary were correct, and how many a significant win. A summary is
// read as found (a campaign picks up run folders it did not write): members of another type
// read as absent.
std::pair<int, int> correct_and_faster(const Json& summary) {
  int correct = 0, faster = 0;
  const Json& candidates = json_member(summary, "candidates");
  for (const Json& c : candidates.is_array() ? candidates : Json::array()) {
    const std::string status = json_text(c, "status");
    correct += status == "faster" || status == "not-faster" || status == "slower";
    faster += status == "faster";
  }
  return {correct, faster};
}

// The speedup fields of a verdict in a summary (best, human, versus_human), or null.
Json speedup_of(const Json& verdict) {
  const double speedup = json_number(verdict, "speedup", 0.0);
  if (!(speedup > 0)) return nullptr;
  return {{"speedup", speedup},
          {"ci_low", json_number(verdict, "ci_low", speedup)},
          {"ci_high", json_number(verdict, "ci_high", speedup)},
          {"status", json_text(verdict, "status")},
          {"id", json_text(verdict, "id")}};
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
  const Json& usage = json_member(summary, "usage");
  const Json& candidates = json_member(summary, "candidates");
  const Json& estimated = json_member(usage, "tokens_estimated");
  line["original_ms"] = json_number(json_member(summary, "original"), "ms", 0.0);
  line["original_seconds"] = line["original_ms"].get<double>() / 1e3;  // Beside wall_s's unit.
  line["best"] = speedup_of(json_member(summary, "best"));
  line["human"] = speedup_of(json_member(summary, "human"));
  line["versus_human"] = speedup_of(json_member(summary, "versus_human"));
  line["candidates"] = candidates.is_array() ? candidates.size() : 0;
  line["correct"] = correct;
  line["faster"] = faster;
  line["input_tokens"] = llm::token_count_at(usage, "input_tokens");
  line["output_tokens"] = llm::token_count_at(usage, "output_tokens");
  line["tokens_estimated"] = estimated.is_boolean() && estimated.get<bool>();
  line["cost_usd"] = json_number(usage, "cost_usd", 0.0);
  return line;
}

namespace {

// The first member of an index line that is not of the type index_line writes (the readers'
// throwing accessors met it as a raw exception), or "".
std::string mistyped_member(const Json& line) {
  for (const char* key : {"run", "status", "reason"})
    if (line.contains(key) && !line[key].is_string()) return key;
  for (const char* key : {"wall_s", "original_ms", "original_seconds", "cost_usd"})
    if (line.contains(key) && !line[key].is_number()) return key;
  for (const char* key : {"candidates", "correct", "faster", "input_tokens", "output_tokens"})
    if (line.contains(key) &&
        !(line[key].is_number_unsigned() && line[key].get<uint64_t>() <= uint64_t{1} << 40))
      return key;
  if (line.contains("tokens_estimated") && !line["tokens_estimated"].is_boolean())
    return "tokens_estimated";
  for (const char* key : {"best", "human", "versus_human"}) {
    const Json& part = json_member(line, key);
    if (part.is_null()) continue;
    if (!part.is_object()) return key;
    for (const char* number : {"speedup", "ci_low", "ci_high"})
      if (part.contains(number) && !part[number].is_number())
        return key + ("." + std::string(number));
    for (const char* text : {"status", "id"})
      if (part.contains(text) && !part[text].is_string()) return key + ("." + std::string(text));
  }
  return {};
}

}  // namespace

Result<std::vector<Json>> read_index(const std::filesystem::path& campaign) {
  const auto path = campaign / kIndexFileName;
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
    if (const std::string key = mistyped_member(*json); !key.empty())
      return fail(where + ": \"" + key + "\" is not of the type kopt writes");
    lines.push_back(std::move(*json));
  }
  return lines;
}

Status append_index(const std::filesystem::path& campaign, const Json& line) {
  // Parallel cells append from their own processes: one write of the whole line, under a lock.
  return append_locked(campaign / kIndexFileName, dump_json(line) + "\n");
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

namespace {

// Starts one command with its output in `log`; the child's pid, or -1.
pid_t start_child(const std::vector<std::string>& command, const std::filesystem::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

}  // namespace

std::filesystem::path unindexed_run(const std::filesystem::path& campaign, const Cell& cell,
                                    const std::vector<Json>& index) {
  std::filesystem::path newest;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(campaign, ec)) {
    const std::string name = entry.path().filename().string();
    if (std::any_of(index.begin(), index.end(),
                    [&](const Json& line) { return json_text(line, "run") == name; }))
      continue;
    auto info = read_json_file(entry.path() / "run.json");  // read as found: never throws
    if (!info || !info->is_object()) continue;
    const Json& config = json_member(*info, "config");
    const Json& seed = json_member(config, "seed");  // absent: the default seed, 1
    if (!config.is_object() || !(seed.is_null() || seed.is_number_unsigned())) continue;
    const Cell made = {json_text(json_member(*info, "benchmark"), "name"), json_text(config, "llm"),
                       json_text(config, "strategy", "marco"),
                       seed.is_null() ? uint64_t{1} : seed.get<uint64_t>()};
    if (made == cell && (newest.empty() || name > newest.filename().string()))
      newest = entry.path();
  }
  return newest;
}

void run_children(const std::vector<std::vector<std::string>>& commands,
                  const std::vector<std::filesystem::path>& logs, int jobs,
                  const std::function<void(size_t, int)>& ended) {
  std::map<pid_t, size_t> running;
  size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && static_cast<int>(running.size()) < std::max(jobs, 1)) {
      const pid_t pid = start_child(commands[next], logs[next]);
      if (pid < 0)
        ended(next, -1);
      else
        running[pid] = next;
      ++next;
    }
    if (running.empty()) continue;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;  // No children left that we know of.
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const size_t index = it->second;
    running.erase(it);
    ended(index, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  }
}

}  // namespace kopt::cli
