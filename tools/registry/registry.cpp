#include "tools/registry/registry.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>

namespace kopt {

void ToolRegistry::add(std::unique_ptr<Tool> tool) {
  if (find(tool->name())) throw std::logic_error("tool registered twice: " + tool->name());
  tools_.push_back(std::move(tool));
}

void ToolRegistry::replace(std::unique_ptr<Tool> tool) {
  for (auto& existing : tools_)
    if (existing->name() == tool->name()) {
      existing = std::move(tool);
      return;
    }
  tools_.push_back(std::move(tool));
}

Tool* ToolRegistry::find(const std::string& name) const {
  for (const auto& tool : tools_)
    if (tool->name() == name) return tool.get();
  return nullptr;
}

std::vector<std::string> ToolRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& tool : tools_) names.push_back(tool->name());
  return names;
}

namespace {

bool has_type(const Json& value, const std::string& type) {
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  return true;
}

}  // namespace

Status validate_arguments(const Json& schema, const Json& arguments) {
  if (!arguments.is_object()) return fail("arguments must be a JSON object");
  for (const auto& key : schema.value("required", Json::array()))
    if (!arguments.contains(key.get<std::string>()))
      return fail("missing required argument '" + key.get<std::string>() + "'");
  const Json properties = schema.value("properties", Json::object());
  for (const auto& [key, value] : arguments.items()) {
    if (!properties.contains(key)) return fail("unknown argument '" + key + "'");
    const Json& property = properties[key];
    const std::string type = property.value("type", "");
    if (!has_type(value, type)) return fail("argument '" + key + "' must be of type " + type);
    if (property.contains("enum")) {
      bool allowed = false;
      for (const auto& option : property["enum"]) allowed = allowed || option == value;
      if (!allowed) return fail("argument '" + key + "' must be one of " + property["enum"].dump());
    }
    if (property.contains("pattern") && value.is_string() &&
        !std::regex_search(value.get<std::string>(),
                           std::regex(property["pattern"].get<std::string>())))
      return fail("argument '" + key + "' must match " + property["pattern"].get<std::string>());
  }
  return {};
}

}  // namespace kopt
