// The one place that knows every tool. Lookups by name; the schemas in the order the model
// sees them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/registry/tool.h"

namespace kopt {

class ToolRegistry {
 public:
  /// Adds a tool; a second tool with the same name replaces nothing and throws (a bug).
  void add(std::unique_ptr<Tool> tool);
  /// Puts `tool` in the place of the one of the same name (added if there is none).
  void replace(std::unique_ptr<Tool> tool);
  /// The tool with that name, or null.
  Tool* find(const std::string& name) const;
  /// Every tool, in registration order.
  const std::vector<std::unique_ptr<Tool>>& tools() const { return tools_; }
  /// Names of every tool.
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<Tool>> tools_;
};

/// Validates arguments against the subset of JSON Schema kopt's tools use (type object,
/// required, properties with type string/integer/number/boolean/array, enum); the Error names
/// the first problem.
Status validate_arguments(const Json& schema, const Json& arguments);

}  // namespace kopt
