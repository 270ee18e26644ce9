#include "tools/benchmark/program.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "util/strings.h"

namespace kopt {

namespace {

// A command field: "make -j2" or {"command": "make -j2", "timeout": 120}.
Status read_command(const Json& m, const char* key, std::string& command, int& timeout) {
  const std::string field = key;
  if (!m.contains(key)) return fail("missing field '" + field + "'");
  const Json& node = m[key];
  const Json* text = &node;
  if (node.is_object()) {
    if (!node.contains("command")) return fail("missing field '" + field + ".command'");
    text = &node["command"];
    if (node.contains("timeout")) {
      if (!node["timeout"].is_number_integer() || node["timeout"].get<long>() <= 0 ||
          node["timeout"].get<long>() > 86400)
        return fail("field '" + field + ".timeout' must be whole seconds, 1 to 86400");
      timeout = node["timeout"].get<int>();
    }
  }
  if (!text->is_string() || trim(text->get<std::string>()).empty())
    return fail("field '" + field + "' must be a command (a non-empty string)");
  command = text->get<std::string>();
  return {};
}

bool safe_relative(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find('\n') != std::string::npos) return false;
  const auto parts = split(name, '/');
  return std::none_of(parts.begin(), parts.end(),
                      [](const std::string& p) { return p.empty() || p == "." || p == ".."; });
}

Status read_editable(const Json& m, std::vector<std::string>& editable) {
  if (!m.contains("editable")) return fail("missing field 'editable'");
  const Json& list = m["editable"];
  if (!list.is_array() || list.empty())
    return fail("field 'editable' must list the files a candidate may change");
  std::set<std::string> seen;
  for (const auto& item : list) {
    if (!item.is_string() || !safe_relative(item.get<std::string>()))
      return fail("field 'editable' must hold paths inside the folder (no '..', not absolute)");
    if (!seen.insert(item.get<std::string>()).second)
      return fail("field 'editable' names " + item.get<std::string>() + " twice");
    editable.push_back(item.get<std::string>());
  }
  return {};
}

Status valid_regex(const std::string& text, const std::string& field) {
  try {
    std::regex compiled(text);
  } catch (const std::regex_error& e) {
    return fail("field '" + field + "' is not a regular expression: " + e.what());
  }
  return {};
}

Status read_check(const Json& m, ProgramCheck& check) {
  if (!m.contains("check") || !m["check"].is_object())
    return fail("field 'check' must be an object with 'pass_regex' and/or 'compare'");
  const Json& c = m["check"];
  for (const auto& [key, value] : c.items()) {
    if (key != "pass_regex" && key != "compare")
      return fail("field 'check." + key + "' is unknown (pass_regex, compare)");
    if (!value.is_string() || trim(value.get<std::string>()).empty())
      return fail("field 'check." + key + "' must be a non-empty string");
  }
  check.pass_regex = c.value("pass_regex", "");
  check.compare = c.value("compare", "");
  if (check.pass_regex.empty() && check.compare.empty())
    return fail("field 'check' needs 'pass_regex' or 'compare'");
  return check.pass_regex.empty() ? Status{} : valid_regex(check.pass_regex, "check.pass_regex");
}

Status read_time(const Json& m, std::string& region_regex) {
  if (!m.contains("time"))
    return fail("missing field 'time' (\"wall\" or {\"region_regex\": ...})");
  const Json& t = m["time"];
  if (t.is_string() && t.get<std::string>() == "wall") return {};
  if (!t.is_object() || !t.contains("region_regex") || !t["region_regex"].is_string())
    return fail("field 'time' must be \"wall\" or {\"region_regex\": \"...\"}");
  region_regex = t["region_regex"].get<std::string>();
  if (auto st = valid_regex(region_regex, "time.region_regex"); !st) return st;
  if (std::regex(region_regex).mark_count() < 1)
    return fail("field 'time.region_regex' needs a group around the number");
  return {};
}

}  // namespace

Status read_program_spec(const Json& m, ProgramSpec& spec) {
  Status checks[] = {read_editable(m, spec.editable),
                     read_command(m, "build", spec.build, spec.build_timeout),
                     read_command(m, "run", spec.run, spec.run_timeout), read_check(m, spec.check),
                     read_time(m, spec.region_regex)};
  for (const auto& st : checks)
    if (!st) return st;
  return {};
}

std::string make_bundle(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string text;
  for (const auto& [name, content] : files) {
    text += kBundleMarker + name + "\n" + content;
    if (!content.empty() && content.back() != '\n') text += '\n';
  }
  return text;
}

Result<std::map<std::string, std::string>> parse_bundle(const std::string& text,
                                                        const std::vector<std::string>& editable) {
  std::map<std::string, std::string> files;
  const std::string marker = kBundleMarker;
  if (text.rfind(marker, 0) != 0 && text.find("\n" + marker) == std::string::npos) {
    if (editable.size() != 1)
      return fail("the candidate names no file: begin each file with a line '" + marker +
                  "NAME' (editable: " + join(editable, ", ") + ")");
    files[editable.front()] = text;
    return files;
  }
  std::string* current = nullptr;
  std::vector<std::string> lines = split(text, '\n');
  if (lines.back().empty()) lines.pop_back();  // The text's final newline ends a line.
  for (const auto& line : lines) {
    if (line.rfind(marker, 0) == 0) {
      const std::string name = trim(line.substr(marker.size()));
      if (std::find(editable.begin(), editable.end(), name) == editable.end())
        return fail("'" + name + "' is not an editable file (editable: " + join(editable, ", ") +
                    ")");
      if (files.count(name)) return fail("the candidate gives '" + name + "' twice");
      current = &files[name];
      continue;
    }
    if (current) *current += line + "\n";
  }
  return files;
}

}  // namespace kopt
