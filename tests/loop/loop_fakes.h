// In-process fakes for the loop's seams: a model backend that answers from a script and an
// evaluation executor that judges candidates by a marker in their source. With them the
// orchestrator's decisions can be tested in milliseconds.
#pragma once

#include <deque>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/llm/backend.h"
#include "tools/eval/evaluator.h"

namespace kopt::test {

/// Answers each request with the next scripted response; the script sees the request.
class ScriptedBackend : public llm::LlmBackend {
 public:
  using Script = std::function<llm::ChatResponse(const llm::ChatRequest&)>;
  explicit ScriptedBackend(Script script) : script_(std::move(script)) {}
  Result<llm::ChatResponse> chat(const llm::ChatRequest& request,
                                 const llm::ChatOptions&) override {
    ++calls;
    llm::ChatResponse response = script_(request);
    response.usage = {1000, 100};
    response.model = "scripted";
    return response;
  }
  std::string name() const override { return "scripted"; }
  bool native_tools() const override { return true; }
  int calls = 0;

 private:
  Script script_;
};

/// Judges a source by a marker comment: "// FAST 2.5" is a 2.5x significant win, "// SAME" is
/// no difference, "// WRONG" computes wrong outputs, "// BROKEN" does not compile.
class MarkerExecutor : public EvaluationExecutor {
 public:
  Evaluation evaluate(const Benchmark& bench, const EvalRequest& request,
                      const ProgressFn&) override {
    ++evaluations;
    Evaluation e;
    e.benchmark = bench.name;
    e.label = request.label;
    e.baseline = request.baseline_label;
    if (request.baseline_source) baselines.push_back(*request.baseline_source);
    e.build = build(bench, request.source);
    if (!e.build.ok) {
      e.status = "build-failed";
      e.reason = e.build.failure;
      return e;
    }
    if (request.source.find("// WRONG") != std::string::npos) {
      e.status = "incorrect";
      e.category = "wrong";
      e.reason = "output 'y' differs at 3 of 9 elements";
      return e;
    }
    CheckCase checked;  // Every correct candidate is 2e-13 off in absolute terms.
    checked.size = bench.check_sizes.back();
    checked.ok = true;
    checked.outputs = {{"y", 2e-13, 3e-14}};
    e.check = CheckOutcome{};
    e.check->ok = true;
    e.check->cases = {checked};
    e.check->rtol = bench.rtol;
    e.check->atol = bench.atol;
    // Against another baseline (a head-to-head), the ratio of the two markers' speeds; a ratio
    // within 3% of 1 is noise there.
    double speedup = marked_speed(request.source);
    const bool head_to_head = request.baseline_source.has_value();
    if (head_to_head) speedup /= marked_speed(*request.baseline_source);
    const bool significant = head_to_head ? speedup * 0.97 > 1 : speedup > 1;
    TimingOutcome t;
    t.ok = true;
    t.interval = {speedup, speedup * 0.97, speedup * 1.03};
    t.p_value = significant ? 1e-9 : 0.5;
    t.significant = significant;
    t.baseline_spread.median = 0.010;
    t.candidate_spread.median = 0.010 / speedup;
    e.timing = t;
    e.status = significant ? "faster" : "not-faster";
    return e;
  }
  /// The speed a source claims with "// FAST X" (1 without one).
  static double marked_speed(const std::string& source) {
    const auto at = source.find("// FAST ");
    return at == std::string::npos ? 1.0 : std::stod(source.substr(at + 8));
  }
  BuildOutcome build(const Benchmark&, const std::string& source) override {
    BuildOutcome b;
    b.ok = source.find("// BROKEN") == std::string::npos;
    if (!b.ok) {
      b.failure = "does not compile: kernel.cpp:3:1: error: expected ';'";
      b.log = b.failure;
    }
    return b;
  }
  int evaluations = 0;
  std::vector<std::string> baselines;  ///< Sources of the baselines other than the original.
};

/// A response that is only text.
inline llm::ChatResponse text(const std::string& content) {
  llm::ChatResponse r;
  r.text = content;
  return r;
}

/// A response that calls one tool with JSON arguments.
inline llm::ChatResponse call(const std::string& name, const std::string& arguments,
                              const std::string& id = "c1") {
  llm::ChatResponse r;
  r.tool_calls.push_back({id, name, arguments, ""});
  r.finish_reason = llm::FinishReason::tool_calls;
  return r;
}

/// A submit call handing in `source`.
inline llm::ChatResponse submit(const std::string& source) {
  return call("submit", dump_json(Json{{"source", source}, {"summary", "scripted"}}));
}

/// True when the request is the analyst's.
inline bool is_analyst(const llm::ChatRequest& r) {
  return r.system.find("performance analyst") != std::string::npos;
}

}  // namespace kopt::test
