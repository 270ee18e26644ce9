#include "agent/loop/effects.h"

#include <thread>

#include "agent/llm/chat_json.h"
#include "agent/record/events.h"
#include "util/files.h"

namespace kopt {

Json tool_call_event(const std::string& role, int iteration, const std::string& name,
                     const Json& arguments, const ToolResult& result) {
  return {{"type", "tool_call"}, {"role", role},           {"iteration", iteration},
          {"name", name},        {"arguments", arguments}, {"ok", result.ok},
          {"text", result.text}, {"data", result.data}};
}

ToolResult tool_result_from_event(const Json& event) {
  ToolResult result;
  result.ok = event.value("ok", false);
  result.text = event.value("text", "");
  result.data = event.value("data", Json());
  return result;
}

LiveEffects::LiveEffects(llm::LlmBackend& backend, ToolRegistry& registry,
                         EvaluationExecutor& executor, const Benchmark& bench, double timing_budget)
    : backend_(backend),
      registry_(registry),
      executor_(executor),
      bench_(bench),
      timing_budget_(timing_budget) {}

Result<llm::ChatResponse> LiveEffects::chat(const std::string& role,
                                            const llm::ChatRequest& request) {
  if (!text_sink_) return backend_.chat(request);
  text_sink_(role, {});
  llm::ChatOptions options;
  options.stream = true;
  options.on_text = [this, &role](std::string_view delta) { text_sink_(role, delta); };
  auto answer = backend_.chat(request, options);
  text_sink_({}, {});
  return answer;
}

void LiveEffects::stream_text_to(std::function<void(const std::string&, std::string_view)> sink) {
  text_sink_ = std::move(sink);
}

ToolResult LiveEffects::tool(const std::string&, const std::string& name, const Json& arguments,
                             ToolContext& context) {
  Tool* tool = registry_.find(name);
  if (!tool) return tool_error("unknown tool '" + name + "'");
  return tool->call(arguments, context);
}

Json LiveEffects::evaluate(const std::string& candidate, const std::string& source, bool time) {
  EvalRequest request;
  request.source = source;
  request.label = candidate;
  request.time = time;
  request.timing.budget_seconds = timing_budget_;
  return to_json(executor_.evaluate(bench_, request, {}));
}

Json LiveEffects::compare(const std::string& candidate, const std::string& source,
                          const std::string& baseline, const std::string& baseline_source) {
  EvalRequest request;
  request.source = source;
  request.label = candidate;
  request.timing.budget_seconds = timing_budget_;
  request.baseline_source = baseline_source;
  request.baseline_label = baseline;
  return to_json(executor_.evaluate(bench_, request, {}));
}

void LiveEffects::prebuild(const std::vector<std::string>& sources) {
  if (bench_.is_program()) return;  // A program's builds are not cached: each evaluation builds.
  std::vector<std::thread> builders;
  for (const auto& source : sources)
    builders.emplace_back([this, &source] { executor_.build(bench_, source); });
  for (auto& builder : builders) builder.join();
}

RecordedEffects::RecordedEffects(const std::vector<Json>& events, Effects* fallback)
    : events_(events), fallback_(fallback) {}

const Json* RecordedEffects::next(const std::vector<std::string>& types, size_t& cursor) {
  for (; cursor < events_.size(); ++cursor) {
    const std::string type = events_[cursor].value("type", "");
    for (const auto& wanted : types)
      if (type == wanted) return &events_[cursor++];
  }
  return nullptr;
}

Result<llm::ChatResponse> RecordedEffects::chat(const std::string& role,
                                                const llm::ChatRequest& request) {
  const Json* event = next({"model_call", "model_error"}, model_cursor_);
  if (!event) {
    if (fallback_) return fallback_->chat(role, request);
    divergence_ = "the loop made a model call (" + role + ") after the last recorded one";
    return fail(divergence_);
  }
  const std::string hash = llm::request_hash(request);
  if (event->value("request_hash", "") != hash) {
    divergence_ = "the " + role + " asked the model something else than recorded";
    if (auto recorded = llm::request_from_json(event->value("request", Json())))
      divergence_ += ": " + first_difference(llm::to_json(*recorded), llm::to_json(request));
    return fail(divergence_);
  }
  if (event->value("type", "") == "model_error")
    return Error{event->value("error", "model error"), event->value("permanent", false)};
  return llm::response_from_json(event->at("response"));
}

ToolResult RecordedEffects::tool(const std::string& role, const std::string& name,
                                 const Json& arguments, ToolContext& context) {
  const Json* event = next({"tool_call"}, tool_cursor_);
  if (!event) {
    if (fallback_) return fallback_->tool(role, name, arguments, context);
    divergence_ = "the loop called tool '" + name + "' after the last recorded tool call";
    return tool_error(divergence_);
  }
  if (event->value("name", "") != name || event->value("arguments", Json()) != arguments) {
    divergence_ = "tool call differs from the record: recorded " + event->value("name", "") + " " +
                  dump_json(event->value("arguments", Json())).substr(0, 200) + ", now " + name +
                  " " + dump_json(arguments).substr(0, 200);
    return tool_error(divergence_);
  }
  return tool_result_from_event(*event);
}

Json RecordedEffects::evaluate(const std::string& candidate, const std::string& source, bool time) {
  const Json* event = next({"evaluation"}, evaluation_cursor_);
  if (!event) {
    if (fallback_) return fallback_->evaluate(candidate, source, time);
    divergence_ = "the loop evaluated " + candidate + " after the last recorded evaluation";
    return Json{{"verdict", {{"status", "error"}, {"reason", divergence_}}}};
  }
  if (event->value("candidate", "") != candidate) {
    divergence_ =
        "evaluation of " + candidate + " where the record has " + event->value("candidate", "");
    return Json{{"verdict", {{"status", "error"}, {"reason", divergence_}}}};
  }
  return event->value("evaluation", Json());
}

Json RecordedEffects::compare(const std::string& candidate, const std::string& source,
                              const std::string& baseline, const std::string& baseline_source) {
  const Json* event = next({"head_to_head"}, evaluation_cursor_);
  if (!event) {
    if (fallback_) return fallback_->compare(candidate, source, baseline, baseline_source);
    return Json();  // A record made before head-to-head comparisons.
  }
  if (event->value("candidate", "") != candidate || event->value("baseline", "") != baseline) {
    divergence_ = "head-to-head of " + candidate + " against " + baseline +
                  " where the record has " + event->value("candidate", "") + " against " +
                  event->value("baseline", "");
    return Json();
  }
  return event->value("evaluation", Json());
}

void RecordedEffects::prebuild(const std::vector<std::string>& sources) {
  if (fallback_) fallback_->prebuild(sources);  // Builds are cached: recorded ones cost nothing.
}

}  // namespace kopt
