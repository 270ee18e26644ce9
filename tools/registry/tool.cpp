#include "tools/registry/tool.h"

#include <nlohmann/json.hpp>

namespace kopt {

ToolResult tool_error(const std::string& message) {
  ToolResult result;
  result.ok = false;
  result.text = "error: " + message;
  result.data = {{"error", message}};
  return result;
}

}  // namespace kopt
