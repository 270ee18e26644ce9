// Where backends read their settings: the process environment in kopt, a map in tests.
#pragma once

#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace kopt::llm {

/// Looks up one environment variable; nullopt when unset or empty.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// The real process environment.
inline EnvLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value || !*value) return std::nullopt;
    return std::string(value);
  };
}

/// A fixed set of variables (tests, or a configuration read from a file).
inline EnvLookup fixed_environment(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

}  // namespace kopt::llm
