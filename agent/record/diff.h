// Unified diffs between kernel files, as people and models read them.
#pragma once

#include <string>
#include <string_view>

namespace kopt {

/// A unified diff of `before` and `after` with "--- a/NAME" / "+++ b/NAME" headers; empty when
/// the texts are equal.
std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& name_before, const std::string& name_after);

/// What a line of a unified diff is, for colouring it.
enum class DiffLine { file, hunk, added, removed, context };

/// The kind of one line (without its newline) of a unified diff.
DiffLine diff_line_kind(std::string_view line);

/// Calls `fn(line, kind)` for each line of a unified diff, without the newlines.
template <typename Fn>
void for_each_diff_line(const std::string& diff, Fn&& fn) {
  size_t start = 0;
  while (start < diff.size()) {
    size_t end = diff.find('\n', start);
    if (end == std::string::npos) end = diff.size();
    const std::string_view line(diff.data() + start, end - start);
    fn(line, diff_line_kind(line));
    start = end + 1;
  }
}

}  // namespace kopt
