// What the loop (and the model) can call: each tool has a name, a one-paragraph description, a
// JSON Schema for its arguments, and returns a compact text for the model plus the full data
// for the run record. Tools are registered in one place (registry.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include "tools/benchmark/benchmark.h"

#include "util/json.h"

namespace kopt {

class EvaluationExecutor;

/// What a tool call sees of the run it belongs to.
struct ToolContext {
  const Benchmark* benchmark = nullptr;
  /// The kernel file the model is working from (the current best candidate).
  std::string current_source;
  /// Every correct candidate's kernel file by id ("0003"): readable and profilable by the model.
  std::map<std::string, std::string> candidates;
  /// Builds and evaluates candidates (never null inside a run).
  EvaluationExecutor* executor = nullptr;
};

/// The answer of one tool call.
struct ToolResult {
  bool ok = true;
  std::string text;  ///< Compact, for the model: what matters, ranked, a few hundred words at most.
  Json data;         ///< Everything, for the run record.
};

/// A failed call: bad arguments, a tool that cannot run here. The text says what to do.
ToolResult tool_error(const std::string& message);

/// One callable tool.
class Tool {
 public:
  virtual ~Tool() = default;
  /// The name the model calls it by ("profile").
  virtual std::string name() const = 0;
  /// What it does and when to use it, for the model.
  virtual std::string description() const = 0;
  /// JSON Schema of the arguments object.
  virtual Json schema() const = 0;
  /// Runs the tool; never throws for bad arguments (returns tool_error).
  virtual ToolResult call(const Json& arguments, ToolContext& context) = 0;
};

}  // namespace kopt
