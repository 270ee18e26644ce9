#include "agent/loop/edits.h"

#include <regex>
#include <vector>

#include "util/strings.h"

namespace kopt {

namespace {

struct EditBlock {
  std::vector<std::string> search, replace;
};

enum class Marker { none, search, divider, replace };

Marker marker_of(const std::string& line) {
  const std::string text = trim(line);
  static const std::regex search("^<{5,9} ?SEARCH$"), divider("^={5,9}$"),
      replace("^>{5,9} ?REPLACE$");
  if (std::regex_match(text, search)) return Marker::search;
  if (std::regex_match(text, divider)) return Marker::divider;
  if (std::regex_match(text, replace)) return Marker::replace;
  return Marker::none;
}

std::vector<EditBlock> parse_blocks(std::string_view text) {
  std::vector<EditBlock> blocks;
  EditBlock current;
  Marker state = Marker::none;
  for (const auto& line : split(text, '\n')) {
    const Marker marker = marker_of(line);
    if (marker == Marker::search) {
      current = {};
      state = Marker::search;
    } else if (marker == Marker::divider && state == Marker::search) {
      state = Marker::divider;
    } else if (marker == Marker::replace && state == Marker::divider) {
      blocks.push_back(std::move(current));
      current = {};
      state = Marker::none;
    } else if (state == Marker::search) {
      current.search.push_back(line);
    } else if (state == Marker::divider) {
      current.replace.push_back(line);
    }
  }
  return blocks;
}

// Drops the "  12| " prefixes of kopt's numbered listings when every non-empty line has one.
std::vector<std::string> without_line_numbers(std::vector<std::string> lines) {
  static const std::regex prefix("^\\s*\\d+\\| ?");
  bool all = false;
  for (const auto& line : lines) {
    if (trim(line).empty()) continue;
    if (!std::regex_search(line, prefix)) return lines;
    all = true;
  }
  if (all)
    for (auto& line : lines)
      line = std::regex_replace(line, prefix, "", std::regex_constants::format_first_only);
  return lines;
}

// Removes blank lines at both ends.
std::vector<std::string> trimmed(std::vector<std::string> lines) {
  while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
  while (!lines.empty() && trim(lines.front()).empty()) lines.erase(lines.begin());
  return lines;
}

// Start indexes of the places where `search` matches `source` line by line, white space at the
// ends of each line ignored.
std::vector<size_t> loose_matches(const std::vector<std::string>& source,
                                  const std::vector<std::string>& search) {
  std::vector<size_t> starts;
  if (search.empty() || search.size() > source.size()) return starts;
  for (size_t at = 0; at + search.size() <= source.size(); ++at) {
    bool same = true;
    for (size_t k = 0; k < search.size() && same; ++k)
      same = trim(source[at + k]) == trim(search[k]);
    if (same) starts.push_back(at);
  }
  return starts;
}

Result<std::string> apply_block(const std::string& source, const EditBlock& block) {
  const auto search = trimmed(without_line_numbers(block.search));
  const auto replace = without_line_numbers(block.replace);
  if (search.empty()) return fail("a SEARCH part is empty: copy the lines to replace into it");
  const std::string quoted = "'" + trim(search.front()) + "'";
  const std::string exact = join(search, "\n");
  if (const size_t at = source.find(exact);
      at != std::string::npos && source.find(exact, at + 1) == std::string::npos)
    return source.substr(0, at) + join(trimmed(replace), "\n") + source.substr(at + exact.size());
  std::vector<std::string> lines = split(source, '\n');
  const auto starts = loose_matches(lines, search);
  if (starts.empty())
    return fail("the SEARCH part starting " + quoted +
                " is not in the current kernel: copy its lines exactly, without line numbers");
  if (starts.size() > 1)
    return fail("the SEARCH part starting " + quoted +
                " matches several places: include more lines to make it unique");
  const auto begin = lines.begin() + static_cast<long>(starts.front());
  lines.erase(begin, begin + static_cast<long>(search.size()));
  const auto body = trimmed(replace);
  lines.insert(lines.begin() + static_cast<long>(starts.front()), body.begin(), body.end());
  return join(lines, "\n");
}

}  // namespace

std::string without_listing_numbers(const std::string& code) {
  return join(without_line_numbers(split(code, '\n')), "\n");
}

bool has_edit_blocks(std::string_view text) {
  return !parse_blocks(text).empty();
}

Result<std::string> apply_edit_blocks(const std::string& source, std::string_view text) {
  const auto blocks = parse_blocks(text);
  if (blocks.empty()) return fail("no complete SEARCH/REPLACE block");
  std::string edited = source;
  for (const auto& block : blocks) {
    auto next = apply_block(edited, block);
    if (!next) return next.error();
    edited = std::move(*next);
  }
  return edited;
}

}  // namespace kopt
