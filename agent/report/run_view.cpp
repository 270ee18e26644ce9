#include "agent/report/run_view.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/llm/accounting.h"
#include "agent/llm/chat_json.h"
#include "agent/record/benchmark_snapshot.h"
#include "agent/record/events.h"
#include "tools/benchmark/benchmark.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt {

namespace {

// Every per-call time (ms) of one side ("baseline" or "candidate") of an evaluation's timing.
std::vector<double> samples_ms(const Json& evaluation, const char* side) {
  std::vector<double> out;
  const Json& rounds = json_member(json_member(json_member(evaluation, "timing"), "samples"), side);
  if (!rounds.is_array()) return out;
  for (const auto& round : rounds)
    for (const auto& t : round.is_array() ? round : Json::array({round}))
      if (t.is_number()) out.push_back(t.get<double>() * 1e3);
  return out;
}

IterationView& iteration_of(RunView& view, int number) {
  for (auto& it : view.iterations)
    if (it.number == number) return it;
  view.iterations.push_back({});
  view.iterations.back().number = number;
  return view.iterations.back();
}

// A recorded call's tokens as the backend reported them, or estimated as the run's ledger did
// when it reported none.
Result<llm::Usage> recorded_usage(const Json& event) {
  auto response = llm::response_from_json(json_member(event, "response"));
  if (!response) return fail("its response: " + response.error().message);
  if (response->usage.total() > 0) return response->usage;
  auto request = llm::request_from_json(json_member(event, "request"));
  return request ? llm::estimate_usage(*request, *response) : llm::Usage{};
}

// Adds one event to the view; a field of the wrong type throws Json::exception.
Status apply_event(RunView& view, const Json& e) {
  const std::string type = e.value("type", "");
  if (type == "iteration") {
    iteration_of(view, e.value("iteration", 0)).best_before = e.value("best", "");
  } else if (type == "model_call") {
    IterationView& it = iteration_of(view, e.value("iteration", 0));
    auto recorded = recorded_usage(e);
    if (!recorded) return recorded.error();
    const llm::Usage& usage = *recorded;
    it.input_tokens += usage.input_tokens;
    it.output_tokens += usage.output_tokens;
    it.tokens_estimated = it.tokens_estimated || usage.estimated;
    if (e.value("role", "") == "analyst" &&
        json_member(e, "response").value("tool_calls", Json::array()).empty())
      it.analysis = json_member(e, "response").value("text", "");
  } else if (type == "tool_call" && e.value("name", "") == "roofline" &&
             e.value("role", "") == "kopt") {
    iteration_of(view, e.value("iteration", 0)).roofline = e.value("text", "");
    const Json& data = e.contains("data") ? e["data"] : Json();
    if (view.peaks.is_null() && data.is_object() && data.contains("peaks")) {
      view.peaks = data["peaks"];
      const Json point = data.value("point", Json::object());
      if (point.is_object() && point.value("limiting", "") == "fp32") view.precision = "fp32";
    }
  } else if (type == "tool_call" && e.value("name", "") == "profile" &&
             e.value("role", "") == "kopt") {
    IterationView& it = iteration_of(view, e.value("iteration", 0));
    it.profile = e.value("text", "");
    const Json& data = e.contains("data") && e.value("ok", true) ? e["data"] : Json();
    view.profiles[it.best_before.empty() ? "original" : it.best_before] = {it.profile, data};
  } else if (type == "head_to_head") {
    const Json& evaluation = json_member(e, "evaluation");
    view.comparisons.push_back({e.value("candidate", ""), e.value("baseline", ""),
                                view.iterations.empty() ? 0 : view.iterations.back().number,
                                read_verdict(evaluation), samples_ms(evaluation, "baseline"),
                                samples_ms(evaluation, "candidate")});
  } else if (type == "candidate" || type == "no_candidate") {
    CandidateView c;
    c.id = e.value("id", "");
    c.parent = e.value("parent", "");
    c.iteration = e.value("iteration", 0);
    c.summary = type == "candidate" ? e.value("summary", "") : e.value("reason", "");
    c.source = e.value("source", "");
    c.verdict.status = type == "candidate" ? "pending" : "no-candidate";
    view.candidates.push_back(c);
  } else if (type == "evaluation") {
    const std::string id = e.value("candidate", "");
    const bool first = view.reference.status.empty();
    if (id == "human") {
      view.human = read_verdict(json_member(e, "evaluation"));
      view.human_baseline_samples_ms = samples_ms(json_member(e, "evaluation"), "baseline");
      view.human_samples_ms = samples_ms(json_member(e, "evaluation"), "candidate");
    }
    if (first && (id == "human" || id == "original"))
      view.reference = read_verdict(json_member(e, "evaluation"));
    for (auto& c : view.candidates)
      if (c.id == id) {
        c.verdict = read_verdict(json_member(e, "evaluation"));
        c.evaluated = true;
        c.baseline_samples_ms = samples_ms(json_member(e, "evaluation"), "baseline");
        c.candidate_samples_ms = samples_ms(json_member(e, "evaluation"), "candidate");
      }
  } else if (type == "decision") {
    for (auto& c : view.candidates)
      if (c.id == e.value("candidate", "")) {
        c.accepted = e.value("accepted", false);
        c.decision = e.value("reason", "");
      }
  } else if (type == "stop") {
    view.stop_rule = e.value("rule", "");
    view.stop_reason = e.value("reason", "");
  }
  return {};
}

}  // namespace

Result<RunView> load_run_view(const std::filesystem::path& dir) {
  auto record = RunRecord::open(dir);
  if (!record) return record.error();
  RunView view;
  view.dir = dir;
  view.info = record->info();
  view.status = record->status();  // RunRecord::open checked that it is a string.
  view.summary = record->summary();
  // A run that died before its first event has no event log yet: it reads as empty.
  auto events = std::filesystem::exists(record->events_path())
                    ? read_events(record->events_path(), &view.torn)
                    : Result<std::vector<Json>>(std::vector<Json>{});
  if (!events) return events.error();
  for (size_t i = 0; i < events->size(); ++i) {
    const std::string where = record->events_path().string() + " line " + std::to_string(i + 2);
    try {
      if (auto applied = apply_event(view, (*events)[i]); !applied)
        return fail(where + ": an event of an unexpected shape (" + applied.error().message + ")");
    } catch (const Json::exception& error) {  // A field of the wrong type.
      return fail(where + ": an event of an unexpected shape (" + json_error_text(error.what()) +
                  ")");
    }
  }
  // When the first evaluation timed nothing (a human version that failed), the original's
  // figures come from the first evaluation that timed it.
  for (const auto& c : view.candidates)
    if (view.reference.original_ms <= 0 && c.verdict.original_ms > 0) {
      view.reference.original_ms = c.verdict.original_ms;
      view.reference.original_gflops = c.verdict.original_gflops;
      view.reference.flops = c.verdict.flops;
      view.reference.bytes = c.verdict.bytes;
    }
  for (auto& c : view.candidates) {
    auto diff = read_file(record->candidate_dir(c.id) / "diff.patch");
    if (diff) c.diff = *diff;
  }
  return view;
}

namespace {

std::string loads_text(const Json& loads) {
  if (!loads.is_array() || loads.empty() || !loads[0].is_number()) return "";
  return fmt::format("{:.2f}", loads[0].get<double>());
}

}  // namespace

std::vector<std::pair<std::string, std::string>> provenance(const RunView& view) {
  std::vector<std::pair<std::string, std::string>> fields;
  auto add = [&](const char* label, const std::string& value) {
    if (!value.empty()) fields.emplace_back(label, value);
  };
  const Json host = json_member(view.info, "host");
  const Json bench = json_member(view.info, "benchmark");
  if (host.is_object())
    add("host",
        fmt::format("{} ({})", json_text(host, "hostname", "?"), json_text(host, "kernel", "?")));
  if (host.contains("cpu_model"))
    add("cpu", fmt::format("{}, {} cores, {} threads", json_text(host, "cpu_model", "?"),
                           json_member(host, "cores").dump(),
                           json_member(host, "hardware_threads").dump()));
  const std::string toolchain = json_text(view.info, "toolchain");
  add("compiler", toolchain.substr(0, toolchain.find(" | ")));
  if (bench.is_object() && bench.contains("flags")) {
    std::string flags;
    for (const auto& f : bench["flags"])
      flags += (flags.empty() ? "" : " ") + (f.is_string() ? f.get<std::string>() : f.dump());
    add("flags", flags);
  }
  const std::string commit = json_text(view.info, "kopt_commit");
  add("kopt", json_text(view.info, "kopt_version") + (commit.empty() ? "" : " (" + commit + ")"));
  const std::string finished = json_text(view.summary, "finished");
  add("date", json_text(view.info, "created") + (finished.empty() ? "" : " to " + finished));
  add("model", json_text(json_member(view.info, "config"), "llm"));
  const std::string start = loads_text(json_member(host, "load_at_start"));
  const std::string end = loads_text(json_member(view.summary, "load_at_end"));
  if (!start.empty())
    add("load", "1-minute load average " + start + " at the start" +
                    (end.empty() ? "" : ", " + end + " at the end"));
  return fields;
}

std::string outcome_reason(const CandidateView& candidate) {
  if (!candidate.verdict.correct()) return candidate.verdict.reason;
  if (candidate.decision.empty()) return "";
  return (candidate.accepted ? "promoted: " : "refused: ") + candidate.decision;
}

std::string best_id(const RunView& view) {
  std::string best = "original";
  for (const auto& c : view.candidates)
    if (c.accepted) best = c.id;
  return best;
}

Result<std::string> benchmark_source(const RunView& view, const std::string& which) {
  const Json& bench = json_member(view.info, "benchmark");
  // The run's own copy of its benchmark first: the suite's may have changed since.
  std::vector<std::filesystem::path> dirs;
  if (has_benchmark_snapshot(view.dir, json_text(bench, "name")))
    dirs.push_back(benchmark_snapshot_dir(view.dir, json_text(bench, "name")));
  dirs.push_back(json_text(bench, "dir"));
  // A record made on another machine (runs/examples/) names a folder that is not here: the
  // benchmark of that name in the run's suite, or in kopt's own.
  const std::string suite = json_text(json_member(view.info, "config"), "suite");
  if (auto found = find_benchmark(json_text(bench, "name"),
                                  suite.empty() ? default_suite() : std::filesystem::path(suite)))
    dirs.push_back(found->dir);
  for (const auto& dir : dirs)
    for (const char* extension : {".cpp", ".cu"})
      if (auto text = read_file(dir / (which + extension))) return *text;
  return fail("cannot read the " + which + " kernel of the run's benchmark " +
              json_text(bench, "name", "?"));
}

const CandidateView* find_candidate(const RunView& view, const std::string& id) {
  for (const auto& c : view.candidates)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace kopt
