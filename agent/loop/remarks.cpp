#include "agent/loop/remarks.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include <fmt/format.h>

#include "util/strings.h"

namespace kopt {

namespace {

// Lines below this share of the time are not hot: their remarks go with the rest.
constexpr double kHotShare = 0.01;

// The LINE of "file:LINE:COL: ...", or INT_MAX when the remark names none.
int remark_line(const std::string& remark) {
  const size_t colon = remark.find(':');
  if (colon == std::string::npos) return INT_MAX;
  char* end = nullptr;
  const long line = std::strtol(remark.c_str() + colon + 1, &end, 10);
  return end != remark.c_str() + colon + 1 && line > 0 && line < INT_MAX ? static_cast<int>(line)
                                                                         : INT_MAX;
}

}  // namespace

std::vector<HotLine> hot_lines(const Json& profile) {
  std::vector<HotLine> lines;
  for (const Json& l : json_member(profile, "lines")) {
    if (!l.is_object() || !l.value("line", Json()).is_number_integer()) continue;
    const Json& share = l.value("share", Json());
    if (share.is_number()) lines.emplace_back(l["line"].get<int>(), share.get<double>());
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const HotLine& a, const HotLine& b) { return a.second > b.second; });
  return lines;
}

std::string ranked_remarks(const std::string& remarks, const std::vector<HotLine>& hot,
                           size_t budget) {
  std::vector<std::string> rest;
  for (const auto& line : split(remarks, '\n'))
    if (!trim(line).empty()) rest.push_back(line);
  std::stable_sort(rest.begin(), rest.end(), [](const std::string& a, const std::string& b) {
    return remark_line(a) < remark_line(b);
  });
  const size_t total = rest.size();
  struct Shown {
    std::string text;
    bool remark;  // Else a heading.
  };
  std::vector<Shown> shown;
  for (const auto& [line, share] : hot) {
    if (share < kHotShare) break;
    auto on_line = [line = line](const std::string& r) { return remark_line(r) == line; };
    const auto first = std::stable_partition(rest.begin(), rest.end(), on_line);
    if (first == rest.begin()) continue;
    shown.push_back({fmt::format("Line {} ({:.0f}% of the time):", line, 100 * share), false});
    for (auto it = rest.begin(); it != first; ++it) shown.push_back({*it, true});
    rest.erase(rest.begin(), first);
  }
  if (!shown.empty() && !rest.empty()) shown.push_back({"Other lines:", false});
  for (const auto& r : rest) shown.push_back({r, true});
  std::string text;
  size_t kept = 0;
  for (const auto& line : shown) {
    if (text.size() + line.text.size() + 1 > budget) break;
    text += line.text + "\n";
    kept += line.remark;
  }
  if (kept < total)
    text += fmt::format("({} more remark{} left out, on colder lines)\n", total - kept,
                        total - kept == 1 ? "" : "s");
  return text;
}

}  // namespace kopt
