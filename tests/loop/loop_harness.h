// An orchestrator over the real licm benchmark and the real prompts, with the scripted model
// and the marker executor of loop_fakes.h; its events go to a real event log.
#pragma once

#include <memory>

#include "agent/loop/effects.h"
#include "agent/loop/loop_tools.h"
#include "agent/loop/orchestrator.h"
#include "loop_fakes.h"
#include "util/files.h"
#include "util/paths.h"

namespace kopt::test {

class LoopHarness {
 public:
  explicit LoopHarness(ScriptedBackend::Script script, RunConfig config = {})
      : backend(std::move(script)),
        config_(std::move(config)),
        registry_(make_loop_registry()),
        dir_("loop-test-") {
    bench_ = find_benchmark("licm", default_suite()).value();
    prompts_ = PromptSet::load(kopt_home() / "prompts").value();
    context_.benchmark = &bench_;
    context_.executor = &executor;
  }

  /// Runs the loop live (scripted model, marker executor), recording events.
  Result<RunOutcome> run() {
    auto log = EventLog::create(dir_.path() / "events.jsonl").value();
    EventStream stream(StreamMode::record, &log);
    LiveEffects effects(*model_, *registry_, executor, bench_, 1);
    auto outcome = drive(effects, stream);
    events_ = read_events(dir_.path() / "events.jsonl").value();
    return outcome;
  }

  /// Continues the recorded run as `kopt resume` does: the record is verified, then the loop
  /// goes on live (the scripted model, the marker executor), appending to the same log.
  Result<RunOutcome> resume() {
    const auto path = dir_.path() / "events.jsonl";
    auto recorded = read_events(path).value();
    auto log = EventLog::open_for_append(path).value();
    auto events = resume_point(log, recorded);
    if (!events) return events.error();
    EventStream stream(StreamMode::resume, &log, *events);
    LiveEffects live(*model_, *registry_, executor, bench_, 1);
    RecordedEffects effects(*events, &live);
    auto outcome = drive(effects, stream);
    events_ = read_events(path).value();
    return outcome;
  }

  /// Replays the whole log as `kopt replay` does (retried calls left out).
  Result<RunOutcome> replay_log() { return replay(without_retried_calls(events_)); }

  /// Re-runs the loop on `recorded` events, verifying the stream; the model is not called.
  Result<RunOutcome> replay(const std::vector<Json>& recorded) {
    EventStream stream(StreamMode::replay, nullptr, recorded);
    RecordedEffects effects(recorded, nullptr);
    auto outcome = drive(effects, stream);
    if (outcome && !stream.recording_exhausted()) return fail("replay ended early");
    return outcome;
  }

  /// Talks to `model` instead of `backend` (which `model` may wrap).
  void use_backend(llm::LlmBackend& model) { model_ = &model; }

  /// Puts a test's tool in the place of the real one of the same name.
  void use_tool(std::unique_ptr<Tool> tool) { registry_->replace(std::move(tool)); }

  /// Recorded events of a type, in order.
  std::vector<Json> events(const std::string& type) const {
    std::vector<Json> found;
    for (const auto& e : events_)
      if (e.value("type", "") == type) found.push_back(e);
    return found;
  }
  const std::vector<Json>& all_events() const { return events_; }

  ScriptedBackend backend;
  MarkerExecutor executor;

 private:
  Result<RunOutcome> drive(Effects& effects, EventStream& stream) {
    llm::UsageLedger ledger;
    llm::Budget budget({config_.budget_tokens, 0, 0});
    LoopServices s;
    s.effects = &effects;
    s.registry = registry_.get();
    s.tool_context = &context_;
    s.events = &stream;
    s.ledger = &ledger;
    s.budget = &budget;
    s.config = &config_;
    s.prompts = &prompts_;
    return Orchestrator(bench_, s, nullptr).run();
  }

  llm::LlmBackend* model_ = &backend;
  RunConfig config_;
  std::unique_ptr<ToolRegistry> registry_;
  TempDir dir_;
  Benchmark bench_;
  PromptSet prompts_;
  ToolContext context_;
  std::vector<Json> events_;
};

/// A kernel file for licm carrying a marker for the MarkerExecutor.
inline std::string kernel(const std::string& marker) {
  return "#include \"kernel.h\"\n" + marker +
         "\nvoid standardize(const double*, const double*, const double*, double*, "
         "long, long, double, double) {}\n";
}

}  // namespace kopt::test
