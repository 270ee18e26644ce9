#include "tools/newbench/param_types.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "util/strings.h"

namespace kopt {

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  for (const auto& part : split(text, ' '))
    if (!trim(part).empty()) words.push_back(trim(part));
  return words;
}

// "const double " -> "double", is_const; drops restrict and volatile.
std::string base_type(const std::string& text, bool& is_const) {
  std::string element;
  for (const auto& word : split_words(text)) {
    if (word == "const") {
      is_const = true;
      continue;
    }
    if (word == "restrict" || word == "__restrict" || word == "__restrict__" || word == "volatile")
      continue;
    element += (element.empty() ? "" : " ") + word;
  }
  return element;
}

std::vector<std::string> bracket_groups(const std::string& text) {
  std::vector<std::string> groups;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '[' && depth++ == 0) continue;
    if (c == ']' && --depth == 0) {
      groups.push_back(trim(current));
      current.clear();
      continue;
    }
    if (depth > 0) current += c;
  }
  return groups;
}

}  // namespace

ParamType parse_param_type(const std::string& type) {
  ParamType parsed;
  if (const size_t star = type.find("(*)"); star != std::string::npos) {
    parsed.pointer = true;
    parsed.element = base_type(type.substr(0, star), parsed.is_const);
    parsed.inner_dims = bracket_groups(type.substr(star + 3));
    parsed.pointer_to_pointer = parsed.element.find('*') != std::string::npos;
    return parsed;
  }
  const auto stars = std::count(type.begin(), type.end(), '*');
  parsed.pointer = stars > 0;
  parsed.pointer_to_pointer = stars > 1 || type.find('[') != std::string::npos;
  parsed.element =
      base_type(type.substr(0, std::min(type.find('*'), type.size())), parsed.is_const);
  if (!parsed.pointer) parsed.is_const = false;  // A const value is still a value.
  return parsed;
}

bool is_integer_type(const std::string& element) {
  static const std::set<std::string> kIntegers = {
      "int",   "unsigned int",   "long", "unsigned long", "long long",    "unsigned long long",
      "short", "unsigned short", "char", "signed char",   "unsigned char"};
  return kIntegers.count(element) > 0;
}

bool is_floating_type(const std::string& element) {
  return element == "float" || element == "double";
}

bool is_comparable_type(const std::string& element) {
  static const std::set<std::string> kComparable = {
      "float", "double", "int", "unsigned int", "long", "unsigned long", "unsigned char"};
  return kComparable.count(element) > 0;
}

std::vector<std::string> identifiers_in(const std::string& expression) {
  std::vector<std::string> names;
  static const std::regex kName("[A-Za-z_][A-Za-z0-9_]*");
  for (auto it = std::sregex_iterator(expression.begin(), expression.end(), kName);
       it != std::sregex_iterator(); ++it)
    if (std::find(names.begin(), names.end(), it->str()) == names.end()) names.push_back(it->str());
  return names;
}

}  // namespace kopt
