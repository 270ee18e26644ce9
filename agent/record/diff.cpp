#include "agent/record/diff.h"

#include <dtl/dtl.hpp>
#include <sstream>
#include <vector>

#include "util/strings.h"

namespace kopt {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines = split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& name_before, const std::string& name_after) {
  if (before == after) return {};
  std::vector<std::string> a = lines_of(before), b = lines_of(after);
  dtl::Diff<std::string> diff(a, b);
  diff.compose();
  diff.composeUnifiedHunks();
  std::ostringstream out;
  out << "--- a/" << name_before << "\n+++ b/" << name_after << "\n";
  diff.printUnifiedFormat(out);
  return out.str();
}

DiffLine diff_line_kind(std::string_view line) {
  if (line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0) return DiffLine::file;
  if (line.rfind("@@", 0) == 0) return DiffLine::hunk;
  if (line.rfind("+", 0) == 0) return DiffLine::added;
  if (line.rfind("-", 0) == 0) return DiffLine::removed;
  return DiffLine::context;
}

}  // namespace kopt
