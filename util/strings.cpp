#include "util/strings.h"

#include <algorithm>
#include <cctype>
#include <ctime>

namespace kopt {

std::vector<std::string> split(std::string_view text, char delimiter) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t end = text.find(delimiter, start);
    fields.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return fields;
}

std::string trim(std::string_view text) {
  const char* space = " \t\r\n";
  size_t first = text.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  size_t last = text.find_last_not_of(space);
  return std::string(text.substr(first, last - first + 1));
}

std::string tail(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::string_view kept = text.substr(text.size() - max_bytes);
  if (size_t newline = kept.find('\n');
      newline != std::string_view::npos && newline + 1 < kept.size())
    kept = kept.substr(newline + 1);
  return "[... " + std::to_string(text.size() - kept.size()) + " bytes cut ...]\n" +
         std::string(kept);
}

std::string one_line_excerpt(std::string_view text, size_t max_bytes) {
  size_t end = std::min(text.size(), max_bytes);
  while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  std::string line(text.substr(0, end));
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return end < text.size() ? line + "..." : line;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string joined;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) joined += separator;
    joined += items[i];
  }
  return joined;
}

std::string to_lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (i) line += ',';
    if (f.find_first_of(",\"\r\n") == std::string::npos) {
      line += f;
      continue;
    }
    line += '"';
    for (char c : f) line += c == '"' ? std::string("\"\"") : std::string(1, c);
    line += '"';
  }
  return line + "\n";
}

std::string utc_folder_stamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  return stamp;
}

}  // namespace kopt
