// Role prompts as templates in prompts/ with named placeholders ({{benchmark}}). Rendering fails
// loudly on a placeholder without a value; every template's hash goes into run.json.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "util/json.h"
#include "util/result.h"

namespace kopt {

using PromptValues = std::map<std::string, std::string>;

class PromptSet {
 public:
  /// Loads every *.md template of `dir` (analyst.system, analyst.user, optimizer.system, ...).
  static Result<PromptSet> load(const std::filesystem::path& dir);

  /// Fills template `name` ("analyst.user"); an unknown template or a placeholder without a
  /// value is an Error naming it.
  Result<std::string> render(const std::string& name, const PromptValues& values) const;
  /// {"analyst.user": "<hash>", ...}, for run.json.
  Json hashes() const;

 private:
  std::map<std::string, std::string> templates_;
};

/// Fills {{name}} placeholders of `text` from `values`.
Result<std::string> fill_placeholders(const std::string& text, const PromptValues& values);

}  // namespace kopt
