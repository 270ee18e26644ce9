// kopt export: runs as data for a spreadsheet or pandas (CSV, one row per evaluation) or as a
// dataset of slow-to-fast pairs (JSONL, one record per correct candidate).
#include <cstdio>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/run_options.h"
#include "agent/record/diff.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt::cli {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kCsvColumns = {
    "run",     "benchmark",    "llm",          "cpu",           "iteration",       "candidate",
    "parent",  "baseline",     "baseline_ms",  "candidate_ms",  "speedup",         "ci_low",
    "ci_high", "p_value",      "status",       "accepted",      "reason",          "decision",
    "gflops",  "gbytes_per_s", "input_tokens", "output_tokens", "tokens_estimated"};

// The run folders an argument names: a run, or every run found below a folder (a campaign's
// or a folder of runs), in name order.
std::vector<fs::path> runs_named(const std::string& name, const Args& args) {
  if (fs::is_directory(name) && !fs::exists(fs::path(name) / "run.json")) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(name, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it.depth() > 3) it.disable_recursion_pending();
      if (it->is_directory() && fs::exists(it->path() / "run.json")) {
        found.push_back(it->path());
        it.disable_recursion_pending();
      }
    }
    std::sort(found.begin(), found.end());
    if (found.empty()) throw UsageError{"no run (a folder with run.json) in " + name};
    return found;
  }
  auto dir = find_run(name, runs_root(args));
  if (!dir) throw UsageError{dir.error().message};
  return {*dir};
}

std::string number(double value) {
  return value > 0 ? fmt::format("{:.6g}", value) : "";
}

const IterationView* iteration_view(const RunView& v, int number) {
  for (const auto& it : v.iterations)
    if (it.number == number) return &it;
  return nullptr;
}

struct RowContext {
  std::string run, benchmark, llm, cpu;
};

std::vector<std::string> csv_fields(const RowContext& r, int iteration, const std::string& id,
                                    const std::string& parent, const std::string& baseline,
                                    const CandidateVerdict& v, const std::string& accepted,
                                    const std::string& decision, const IterationView* it) {
  const bool timed = v.speedup > 0;
  return {r.run,
          r.benchmark,
          r.llm,
          r.cpu,
          iteration > 0 ? std::to_string(iteration) : "",
          id,
          parent,
          baseline,
          number(v.original_ms),
          number(v.candidate_ms),
          number(v.speedup),
          timed ? number(v.ci_low) : "",
          timed ? number(v.ci_high) : "",
          timed ? fmt::format("{:.6g}", v.p_value) : "",
          v.status,
          accepted,
          v.reason,
          decision,
          number(v.gflops),
          number(v.gbytes_per_s),
          it ? std::to_string(it->input_tokens) : "",
          it ? std::to_string(it->output_tokens) : "",
          it ? (it->tokens_estimated ? "true" : "false") : ""};
}

// One row per evaluation of a run: the human version's (or the original's against itself),
// each candidate's against the original, and each head-to-head comparison.
std::string csv_rows(const RunView& v) {
  const RowContext r{v.dir.filename().string(), json_text(json_member(v.info, "benchmark"), "name"),
                     json_text(json_member(v.info, "config"), "llm"),
                     json_text(json_member(v.info, "host"), "cpu_model")};
  std::string out;
  if (!v.reference.status.empty())
    out += csv_row(csv_fields(r, 0, v.human.status.empty() ? "original" : "human", "", "original",
                              v.reference, "", "", nullptr));
  for (const auto& c : v.candidates) {
    const IterationView* it = iteration_view(v, c.iteration);
    const std::string accepted = c.evaluated ? (c.accepted ? "true" : "false") : "";
    out += csv_row(csv_fields(r, c.iteration, c.id, c.parent, "original", c.verdict, accepted,
                              c.decision, it));
  }
  for (const auto& h : v.comparisons)
    out += csv_row(
        csv_fields(r, h.iteration, h.candidate, "", h.baseline, h.verdict, "", "", nullptr));
  return out;
}

// The source a candidate was derived from: its parent candidate's, or the benchmark's original.
std::string parent_source(const RunView& v, const CandidateView& c) {
  if (const CandidateView* p = find_candidate(v, c.parent)) return p->source;
  auto original = benchmark_source(v, "original");
  return original ? *original : "";
}

// One record per correct candidate: the pair (parent, child), the evidence the model had when
// it wrote the child, and what kopt measured.
std::string jsonl_records(const RunView& v) {
  std::string out;
  for (const auto& c : v.candidates) {
    if (!c.evaluated || !c.verdict.correct() || c.source.empty()) continue;
    const IterationView* it = iteration_view(v, c.iteration);
    const std::string parent = parent_source(v, c);
    const CandidateVerdict& d = c.verdict;
    Json record = {{"format", "kopt-example/1"},
                   {"run", v.dir.filename().string()},
                   {"benchmark", json_text(json_member(v.info, "benchmark"), "name")},
                   {"llm", json_text(json_member(v.info, "config"), "llm")},
                   {"cpu", json_text(json_member(v.info, "host"), "cpu_model")},
                   {"iteration", c.iteration},
                   {"candidate", c.id},
                   {"parent", c.parent},
                   {"parent_source", parent},
                   {"source", c.source},
                   {"diff", unified_diff(parent, c.source, c.parent, c.id)},
                   {"evidence",
                    {{"analysis", it ? it->analysis : ""},
                     {"profile", it ? it->profile : ""},
                     {"roofline", it ? it->roofline : ""},
                     {"remarks", d.remarks}}},
                   {"status", d.status},
                   {"accepted", c.accepted},
                   {"decision", c.decision},
                   {"speedup", d.speedup},
                   {"ci_low", d.ci_low},
                   {"ci_high", d.ci_high},
                   {"p_value", d.p_value},
                   {"baseline_ms", d.original_ms},
                   {"candidate_ms", d.candidate_ms},
                   {"input_tokens", it ? it->input_tokens : 0},
                   {"output_tokens", it ? it->output_tokens : 0},
                   {"tokens_estimated", it ? it->tokens_estimated : false}};
    out += dump_json(record) + "\n";
  }
  return out;
}

int run_export(const Args& args) {
  const std::string format = args.get("format");
  if (format != "csv" && format != "jsonl")
    throw UsageError{"--format takes csv or jsonl, not '" + format + "'"};
  std::vector<fs::path> dirs;
  for (const auto& name : args.list("RUN")) {
    auto named = runs_named(name, args);
    dirs.insert(dirs.end(), named.begin(), named.end());
  }
  std::string text = format == "csv" ? csv_row(kCsvColumns) : "";
  for (const auto& dir : dirs) {
    const RunView view = open_run_view(dir);
    text += format == "csv" ? csv_rows(view) : jsonl_records(view);
  }
  const std::string file = args.get("to");
  if (file.empty() || file == "-") {
    std::cout << text << std::flush;
    return kExitOk;
  }
  if (auto st = write_file(file, text); !st) throw UsageError{st.error().message};
  std::fprintf(stderr, "kopt export: %zu run%s to %s\n", dirs.size(), dirs.size() == 1 ? "" : "s",
               file.c_str());
  return kExitOk;
}

}  // namespace

CommandSpec export_command() {
  return {"export",
          "Write runs as data: CSV with one row per evaluation, or JSONL with one record per "
          "correct candidate (parent and child source, evidence, measured speedup)",
          {{"RUN", "Runs: a run folder, name or id, or a folder holding runs (every run below it)",
            "", false, true, "", true},
           {"--format", "csv or jsonl", "csv"},
           {"--to", "File to write (default: standard output)"},
           {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"}},
          run_export};
}

}  // namespace kopt::cli
