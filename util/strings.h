// String helpers shared across kopt.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kopt {

/// Splits on a delimiter; empty fields are kept.
std::vector<std::string> split(std::string_view text, char delimiter);

/// Removes leading and trailing white space.
std::string trim(std::string_view text);

/// `text` with ASCII letters in lower case.
std::string to_lower(std::string text);

/// True when `text` starts with `prefix`.
inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

/// Keeps the last `max_bytes` of text (whole lines where possible), marking the cut.
std::string tail(std::string_view text, size_t max_bytes);

/// The start of text on one line for a message: at most `max_bytes` (never cutting a UTF-8
/// character), line breaks made spaces, "..." where it was cut.
std::string one_line_excerpt(std::string_view text, size_t max_bytes);

/// Joins items with a separator.
std::string join(const std::vector<std::string>& items, std::string_view separator);

/// One line of CSV (RFC 4180) with its newline: a field holding a comma, a quote or a line break
/// is quoted, its quotes doubled.
std::string csv_row(const std::vector<std::string>& fields);

/// The current UTC time as "20261125-041557", for folder names that sort by time.
std::string utc_folder_stamp();

}  // namespace kopt
