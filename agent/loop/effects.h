// Everything the loop does to the world goes through Effects: model calls, tool calls and
// candidate evaluations. LiveEffects does them; RecordedEffects serves them from a run's
// events (replay), falling back to live effects once the record runs out (resume). The loop's
// decisions depend only on what Effects returns, which is what makes replay exact.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agent/llm/backend.h"
#include "agent/llm/chat.h"
#include "tools/eval/evaluator.h"
#include "tools/registry/registry.h"

namespace kopt {

/// The `tool_call` event of one call (by the model's `role`, or "kopt" itself); RecordedEffects
/// reads its result back with tool_result_from_event.
Json tool_call_event(const std::string& role, int iteration, const std::string& name,
                     const Json& arguments, const ToolResult& result);

/// The result a recorded `tool_call` event holds.
ToolResult tool_result_from_event(const Json& event);

class Effects {
 public:
  virtual ~Effects() = default;
  /// One model call made for `role`.
  virtual Result<llm::ChatResponse> chat(const std::string& role,
                                         const llm::ChatRequest& request) = 0;
  /// One call of a registered tool with validated arguments.
  virtual ToolResult tool(const std::string& role, const std::string& name, const Json& arguments,
                          ToolContext& context) = 0;
  /// Evaluates a candidate against the original; returns its kopt-evaluation/1 document.
  virtual Json evaluate(const std::string& candidate, const std::string& source, bool time) = 0;
  /// Times a correct candidate head to head against `baseline` (e.g. "human") in one
  /// alternated evaluation; returns its kopt-evaluation/1 document, or null when a record made
  /// before head-to-head comparisons holds none.
  virtual Json compare(const std::string& candidate, const std::string& source,
                       const std::string& baseline, const std::string& baseline_source) = 0;
  /// Builds sources ahead of their evaluations, in parallel (nothing when results are recorded).
  virtual void prebuild(const std::vector<std::string>& sources) { (void)sources; }
};

/// Calls the model, runs tools and evaluates for real.
class LiveEffects : public Effects {
 public:
  LiveEffects(llm::LlmBackend& backend, ToolRegistry& registry, EvaluationExecutor& executor,
              const Benchmark& bench, double timing_budget);
  Result<llm::ChatResponse> chat(const std::string& role, const llm::ChatRequest& request) override;
  ToolResult tool(const std::string& role, const std::string& name, const Json& arguments,
                  ToolContext& context) override;
  Json evaluate(const std::string& candidate, const std::string& source, bool time) override;
  Json compare(const std::string& candidate, const std::string& source, const std::string& baseline,
               const std::string& baseline_source) override;
  void prebuild(const std::vector<std::string>& sources) override;
  /// Streams every model call from now on, its text to `sink` (role, then the pieces); an
  /// empty sink asks for whole answers again.
  void stream_text_to(std::function<void(const std::string&, std::string_view)> sink);

 private:
  llm::LlmBackend& backend_;
  std::function<void(const std::string&, std::string_view)> text_sink_;
  ToolRegistry& registry_;
  EvaluationExecutor& executor_;
  const Benchmark& bench_;
  double timing_budget_;
};

/// Serves model responses, tool results and evaluations from recorded events, in order, after
/// checking that the loop asks for the same thing it asked for then. With a fallback, what the
/// record does not hold is done live (resume); without one it is an Error (replay).
class RecordedEffects : public Effects {
 public:
  RecordedEffects(const std::vector<Json>& events, Effects* fallback);
  Result<llm::ChatResponse> chat(const std::string& role, const llm::ChatRequest& request) override;
  ToolResult tool(const std::string& role, const std::string& name, const Json& arguments,
                  ToolContext& context) override;
  Json evaluate(const std::string& candidate, const std::string& source, bool time) override;
  Json compare(const std::string& candidate, const std::string& source, const std::string& baseline,
               const std::string& baseline_source) override;
  void prebuild(const std::vector<std::string>& sources) override;

  /// The first way the loop asked for something the record does not hold (replay), or empty.
  const std::string& divergence() const { return divergence_; }

 private:
  const Json* next(const std::vector<std::string>& types, size_t& cursor);

  std::vector<Json> events_;
  Effects* fallback_;
  size_t model_cursor_ = 0, tool_cursor_ = 0, evaluation_cursor_ = 0;
  std::string divergence_;
};

}  // namespace kopt
