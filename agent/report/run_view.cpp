#include "agent/report/run_view.h"

#include <nlohmann/json.hpp>

#include "agent/llm/accounting.h"
#include "agent/llm/chat_json.h"
#include "agent/record/events.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt {

namespace {

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
    if (id == "human") view.human = read_verdict(json_member(e, "evaluation"));
    if (first && (id == "human" || id == "original"))
      view.reference = read_verdict(json_member(e, "evaluation"));
    for (auto& c : view.candidates)
      if (c.id == id) {
        c.verdict = read_verdict(json_member(e, "evaluation"));
        c.evaluated = true;
      }
  } else if (type == "decision") {
    for (auto& c : view.candidates)
      if (c.id == e.value("candidate", "")) c.accepted = e.value("accepted", false);
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
  auto events = read_events(record->events_path(), &view.torn);
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
  for (auto& c : view.candidates) {
    auto diff = read_file(record->candidate_dir(c.id) / "diff.patch");
    if (diff) c.diff = *diff;
  }
  return view;
}

const CandidateView* find_candidate(const RunView& view, const std::string& id) {
  for (const auto& c : view.candidates)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace kopt
