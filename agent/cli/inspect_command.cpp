#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/run_options.h"
#include "agent/record/diff.h"
#include "agent/report/run_view.h"
#include "util/files.h"

namespace kopt::cli {

namespace {

std::string speedup_text(const CandidateVerdict& v) {
  return v.speedup > 0 ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", v.speedup, v.ci_low, v.ci_high)
                       : "-";
}

std::string milliseconds(double ms) {
  return ms > 0 ? fmt::format("{:.4g}", ms) : "-";
}

// One run as `kopt runs` lists it: {run, benchmark, llm, status, best, human, folder}, the
// last two the summary's (null before the run has one); or why the run cannot be read.
Result<Json> run_entry(const std::filesystem::path& dir) {
  auto record = RunRecord::open(dir);
  if (!record) return record.error();
  const Json& info = record->info();
  const Json summary = record->summary();
  auto part = [&](const char* key) {
    const Json value = summary.is_object() ? summary.value(key, Json()) : Json();
    return value.is_object() ? value : Json();
  };
  try {
    return Json{{"run", dir.filename().string()},
                {"benchmark", info["benchmark"].value("name", "?")},
                {"llm", info["config"].value("llm", "?")},
                {"status", record->status()},
                {"best", part("best")},
                {"human", part("human")},
                {"folder", dir.string()}};
  } catch (const Json::exception&) {
    return fail((dir / "run.json").string() + ": a field has the wrong type");
  }
}

std::string run_row(const Json& e) {
  auto speed = [&](const char* key) {
    const Json& part = e[key];
    return part.is_object() ? fmt::format("{:.2f}x", part.value("speedup", 0.0)) : std::string("-");
  };
  return fmt::format("{:<36} {:<18} {:<22} {:<11} {:>10} {:>10}", e.value("run", ""),
                     e.value("benchmark", ""), e.value("llm", "").substr(0, 22),
                     e.value("status", ""), speed("best"), speed("human"));
}

int run_runs(const Args& args) {
  const std::filesystem::path root = runs_root(args);
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec))
    if (std::filesystem::exists(entry.path() / "run.json")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  const bool json = args.flag("json");
  if (!json)
    fmt::print("{:<36} {:<18} {:<22} {:<11} {:>10} {:>10}\n", "RUN", "BENCHMARK", "LLM", "STATUS",
               "BEST", "HUMAN");
  Json all = Json::array();
  int unreadable = 0;
  for (const auto& dir : dirs) {
    auto entry = run_entry(dir);
    if (!entry) ++unreadable;
    if (json)
      all.push_back(entry ? *entry
                          : Json{{"run", dir.filename().string()},
                                 {"folder", dir.string()},
                                 {"unreadable", entry.error().message}});
    else if (entry)
      fmt::print("{}\n", run_row(*entry));
    else
      fmt::print("{:<36} unreadable: {}\n", dir.filename().string(), entry.error().message);
  }
  if (json) fmt::print("{}\n", dump_json(all, 2));
  if (unreadable)
    std::fprintf(stderr, "kopt runs: %d run%s could not be read\n", unreadable,
                 unreadable > 1 ? "s" : "");
  return unreadable ? kExitFailed : kExitOk;
}

// The run as `kopt show --json` prints it: what the table shows, as data.
Json show_json(const RunView& v) {
  Json candidates = Json::array();
  for (const auto& c : v.candidates) {
    candidates.push_back(
        candidate_json(c.id, c.verdict, c.parent, c.iteration, c.accepted, c.summary));
    candidates.back()["decision"] = c.decision;
  }
  Json made = Json::object();
  for (const auto& [label, value] : provenance(v)) made[label] = value;
  Json iterations = Json::array();
  for (const auto& it : v.iterations)
    iterations.push_back({{"iteration", it.number},
                          {"best_before", it.best_before},
                          {"input_tokens", it.input_tokens},
                          {"output_tokens", it.output_tokens},
                          {"tokens_estimated", it.tokens_estimated}});
  return {{"run", v.dir.filename().string()},
          {"benchmark", v.info["benchmark"].value("name", "?")},
          {"llm", v.info["config"].value("llm", "?")},
          {"status", v.status},
          {"provenance", made},
          {"stop", {{"rule", v.stop_rule}, {"reason", v.stop_reason}}},
          {"original_ms", v.reference.original_ms},
          {"human", v.human.status.empty() ? Json() : verdict_json("human", v.human)},
          {"candidates", candidates},
          {"iterations", iterations}};
}

int run_show(const Args& args) {
  RunView v = open_run_view(run_dir(args));
  if (args.flag("json")) {
    fmt::print("{}\n", dump_json(show_json(v), 2));
    return kExitOk;
  }
  fmt::print("run      {} ({})\n", v.dir.filename().string(),
             v.info["benchmark"].value("name", "?"));
  for (const auto& [label, value] : provenance(v)) fmt::print("{:<8} {}\n", label, value);
  const std::string why =
      v.stop_rule.empty() ? v.info.value("status_reason", "") : v.stop_rule + ": " + v.stop_reason;
  if (v.status == "stopped")
    fmt::print(
        "status   stopped before it finished (Ctrl-C or killed); kopt resume {} continues "
        "it\n",
        v.dir.filename().string());
  else
    fmt::print("status   {}{}\n", v.status, why.empty() ? "" : " (" + why + ")");
  if (v.human.status.empty())
    fmt::print("human    none (original {:.4g} ms)\n\n", v.reference.original_ms);
  else if (v.human.speedup <= 0)
    fmt::print("human    {}: {}\n\n", v.human.status, v.human.reason);
  else
    fmt::print("human    {:.4g} ms vs original {:.4g} ms: {}\n\n", v.human.candidate_ms,
               v.human.original_ms, speedup_text(v.human));
  fmt::print("{:<5} {:<6} {:<9} {:<13} {:>9} {:>9} {:>22} {:>9} {:>8} {:>8}\n", "ITER", "CAND",
             "FROM", "VERDICT", "MS", "BASE MS", "SPEEDUP [CI]", "GFLOP/s", "GB/s", "TOKENS");
  const std::string best = best_id(v);
  for (const auto& it : v.iterations) {
    bool first = true;
    for (const auto& c : v.candidates) {
      if (c.iteration != it.number) continue;
      const std::string tokens = first ? fmt::format("{}{:.1f}k", it.tokens_estimated ? "~" : "",
                                                     (it.input_tokens + it.output_tokens) / 1000.0)
                                       : "";
      fmt::print("{:<5} {:<6} {:<9} {:<13} {:>9} {:>9} {:>22} {:>9} {:>8} {:>8}{}\n",
                 first ? std::to_string(it.number) : "", c.id, c.parent, c.verdict.status,
                 milliseconds(c.verdict.candidate_ms), milliseconds(c.verdict.original_ms),
                 speedup_text(c.verdict),
                 c.verdict.gflops > 0 ? fmt::format("{:.3g}", c.verdict.gflops) : "-",
                 c.verdict.gbytes_per_s > 0 ? fmt::format("{:.3g}", c.verdict.gbytes_per_s) : "-",
                 tokens,
                 c.id == best ? "  <- best"
                 : c.accepted ? "  <- promoted"
                              : "");
      if (const std::string reason = outcome_reason(c); !reason.empty())
        fmt::print("      {}\n", reason.substr(0, 200));
      for (const auto& h : v.comparisons)
        if (h.candidate == c.id)
          fmt::print("      head to head against {}: {} ms vs {} ms, {} ({})\n", h.baseline,
                     milliseconds(h.verdict.candidate_ms), milliseconds(h.verdict.original_ms),
                     speedup_text(h.verdict), h.verdict.status);
      first = false;
    }
  }
  if (const Json& h = v.summary.is_object() ? v.summary["versus_human"] : Json(); h.is_object())
    fmt::print(
        "\nvs human {} timed head to head against the human version: {:.4g} ms vs {:.4g} ms, "
        "{:.2f}x [{:.2f}, {:.2f}] ({})\n",
        h.value("id", ""), h.value("ms", 0.0), h.value("baseline_ms", 0.0), h.value("speedup", 0.0),
        h.value("ci_low", 0.0), h.value("ci_high", 0.0), h.value("status", ""));
  if (v.torn)
    fmt::print(
        "\nnote: the event log ends in a torn line (the run was killed while writing); kopt resume "
        "continues it\n");
  return 0;
}

// The id a name stands for: "best" for the run's best candidate, a plain number for the
// candidate of that number ("3" for "0003"); other names unchanged.
std::string resolve_name(const RunView& v, const std::string& name) {
  if (name == "best") return best_id(v);
  if (!name.empty() && name.size() < 4 && name.find_first_not_of("0123456789") == std::string::npos)
    return std::string(4 - name.size(), '0') + name;
  return name;
}

std::string source_of(const RunView& v, const std::string& id) {
  if (id == "original" || id == "human") {
    auto text = benchmark_source(v, id);
    if (!text) throw UsageError{text.error().message};
    return *text;
  }
  const CandidateView* c = find_candidate(v, id);
  if (!c || c->source.empty())
    throw UsageError{"no candidate '" + id +
                     "' with a source in this run (names: original, human, best, or a "
                     "candidate's number)"};
  return c->source;
}

// A unified diff with added lines green, removed lines red and hunk headers cyan.
std::string coloured(const std::string& diff) {
  std::string out;
  for_each_diff_line(diff, [&](std::string_view line, DiffLine kind) {
    const char* colour = kind == DiffLine::file      ? "\033[1m"
                         : kind == DiffLine::hunk    ? "\033[36m"
                         : kind == DiffLine::added   ? "\033[32m"
                         : kind == DiffLine::removed ? "\033[31m"
                                                     : "";
    out += *colour ? fmt::format("{}{}\033[0m\n", colour, line) : fmt::format("{}\n", line);
  });
  return out;
}

int run_diff(const Args& args) {
  RunView v = open_run_view(run_dir(args));
  const std::string a = resolve_name(v, args.get("A")), b = resolve_name(v, args.get("B"));
  const std::string diff = unified_diff(source_of(v, a), source_of(v, b), a, b);
  const std::string colour = args.get("color");
  if (colour != "auto" && colour != "always" && colour != "never")
    throw UsageError{"--color takes auto, always or never, not '" + colour + "'"};
  const bool paint = colour == "always" || (colour == "auto" && isatty(STDOUT_FILENO) &&
                                            std::getenv("NO_COLOR") == nullptr);
  fmt::print("{}", diff.empty() ? "(identical)\n" : paint ? coloured(diff) : diff);
  return 0;
}

const OptionSpec kRun = {"RUN", "Run folder, name or id", "", false, true};
const OptionSpec kOut = {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"};

}  // namespace

CommandSpec runs_command() {
  return {"runs",
          "List the recorded runs",
          {kOut, {"--json", "Print the runs as a JSON array", "", true}},
          run_runs};
}

CommandSpec show_command() {
  return {
      "show",
      "Show a run iteration by iteration: verdicts, times, speedups, rates, tokens",
      {kRun, kOut, {"--json", "Print the run as JSON: candidates, verdicts, iterations", "", true}},
      run_show};
}

CommandSpec diff_command() {
  return {"diff",
          "Show the difference between two versions of a run's kernel: original, human, best, or a "
          "candidate's number",
          {kRun,
           {"A", "First version (original, human, best, 3 or 0003)", "", false, true},
           {"B", "Second version", "", false, true},
           kOut,
           {"--color",
            "Colour the diff: auto (on a terminal, unless NO_COLOR is set), always or "
            "never",
            "auto"}},
          run_diff};
}

}  // namespace kopt::cli
