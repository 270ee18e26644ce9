// Flags are the contract: the manifest's compiler flags fix optimization and floating-point
// semantics, and a candidate may not change them from inside its source. Pragmas are read from
// the preprocessed text, where `_Pragma` produced by macros appears as a plain `#pragma` line;
// attributes are read there too, after macro expansion. Text from system headers (entered by a
// real #include, marked 1 and 3 by the preprocessor) is skipped; a candidate cannot forge those
// marks because line directives are refused in its source.
#include <regex>
#include <set>
#include <sstream>

#include "tools/eval/static_check_link.h"
#include "util/strings.h"

namespace kopt {

namespace {

struct DeniedPragma {
  const char* name;  // As the manifest's "allow_pragmas" names it.
  std::regex pattern;
};

const std::vector<DeniedPragma>& denied_pragmas() {
  static const std::vector<DeniedPragma> table = {
      {"GCC optimize", std::regex(R"(^\s*GCC\s+optimize\b)")},
      {"GCC target", std::regex(R"(^\s*GCC\s+target\b)")},
      {"STDC FP_CONTRACT", std::regex(R"(^\s*STDC\s+FP_CONTRACT\b)")},
      {"STDC FENV_ACCESS", std::regex(R"(^\s*STDC\s+FENV_(ACCESS|ROUND)\b)")},
      {"STDC CX_LIMITED_RANGE", std::regex(R"(^\s*STDC\s+CX_LIMITED_RANGE\b)")},
      {"clang fp", std::regex(R"(^\s*clang\s+fp\b)")},
      {"float_control", std::regex(R"(^\s*(float_control|fp_contract|fenv_access)\b)")},
  };
  return table;
}

// Attribute names (GNU or C++11 spelling, with or without underscores) that change code
// generation beyond the flags: optimization levels and fast-math, instruction sets (FMA
// contraction rounds differently), and function multi-versioning (an ifunc resolved before
// main).
const std::regex& denied_attribute() {
  static const std::regex pattern(
      R"(\b(__)?(optimize|target|target_clones|target_version)(__)?\b)");
  return pattern;
}

bool allowed_by(const std::vector<std::string>& allowed, const std::string& name) {
  for (const auto& a : allowed)
    if (a == name) return true;
  return false;
}

Finding flags_finding(const std::string& what, const std::string& how) {
  return {"flags", what,
          how +
              ": kernels may not change the optimization or floating-point semantics the "
              "manifest's flags fix (allowed only where the manifest's \"allow_pragmas\" "
              "names it)"};
}

// Source lines joined across backslash-newlines, as the preprocessor sees them.
std::string splice_lines(const std::string& source) {
  std::string out;
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      ++i;
      continue;
    }
    out += source[i];
  }
  return out;
}

// The text of attribute lists: `__attribute__((...))` with balanced parentheses and `[[...]]`.
std::vector<std::string> attribute_lists(const std::string& text) {
  std::vector<std::string> lists;
  static const std::regex start(R"(\b__attribute(__)?\s*\(|\[\[)");
  for (std::sregex_iterator it(text.begin(), text.end(), start), end; it != end; ++it) {
    const size_t from = it->position() + it->length();
    if (it->str() == "[[") {
      lists.push_back(text.substr(from, text.find("]]", from) - from));
      continue;
    }
    int depth = 1;
    size_t i = from;
    for (; i < text.size() && depth > 0; ++i) depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    lists.push_back(text.substr(from, i - from));
  }
  return lists;
}

// The preprocessed text outside system headers. Only a header entered by a real #include
// (marked 1 and 3) counts as a system region; a bare mark 3 inside the candidate's file (GCC
// writes one around tokens that a system header's macro expanded to, and after
// `#pragma GCC system_header`) leaves the text checked.
std::string candidate_text(const std::string& preprocessed) {
  static const std::regex marker(R"re(^#\s+\d+\s+"([^"]*)"((\s+\d)*)\s*$)re");
  std::vector<bool> system_stack = {false};
  std::string kept;
  std::istringstream lines(preprocessed);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, m, marker)) {
      const std::string flags = " " + m[2].str() + " ";
      if (flags.find(" 1 ") != std::string::npos)
        system_stack.push_back(flags.find(" 3 ") != std::string::npos);
      else if (flags.find(" 2 ") != std::string::npos && system_stack.size() > 1)
        system_stack.pop_back();
      continue;
    }
    if (!system_stack.back()) kept += line + "\n";
  }
  return kept;
}

}  // namespace

std::vector<Finding> check_flags(const std::string& source, const std::string& preprocessed,
                                 const std::vector<std::string>& allowed) {
  std::vector<Finding> findings;
  // A line directive could forge the preprocessor's marks; `%:` and `??=` spell `#` too.
  static const std::regex line_directive(R"((#|%:|\?\?=)([ \t]|/\*[\s\S]*?\*/)*(line\b|\d))");
  if (std::regex_search(splice_lines(source), line_directive))
    findings.push_back(flags_finding("#line",
                                     "uses a line directive (it could hide pragmas from "
                                     "the check)"));
  const std::string text = candidate_text(preprocessed);
  static const std::regex pragma(R"(^\s*#\s*pragma\s+(.*)$)");
  std::istringstream lines(text);
  std::string line;
  std::smatch m;
  std::set<std::string> seen;
  while (std::getline(lines, line)) {
    if (!std::regex_match(line, m, pragma)) continue;
    const std::string body = m[1];
    for (const auto& denied : denied_pragmas())
      if (std::regex_search(body, denied.pattern) && !allowed_by(allowed, denied.name) &&
          seen.insert(denied.name).second)
        findings.push_back(flags_finding("#pragma " + trim(body), "uses #pragma " + trim(body)));
  }
  for (const auto& list : attribute_lists(text)) {
    std::smatch a;
    if (!std::regex_search(list, a, denied_attribute())) continue;
    const std::string name = a[2];
    const std::string as_pragma = name == "optimize" ? "GCC optimize" : "GCC target";
    if (allowed_by(allowed, as_pragma) || !seen.insert("attribute " + name).second) continue;
    findings.push_back(
        flags_finding("__attribute__((" + name + "))", "uses the attribute " + name + "(...)"));
  }
  return findings;
}

}  // namespace kopt
