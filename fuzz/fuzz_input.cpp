#include "fuzz/fuzz_input.h"

#include <unistd.h>

#include <cstdlib>

#include "util/files.h"

namespace kopt::fuzz {

std::vector<std::string> split_parts(const std::string& text, size_t count) {
  static const std::string separator = "\n====\n";
  std::vector<std::string> parts;
  size_t start = 0;
  while (parts.size() + 1 < count) {
    const size_t at = text.find(separator, start);
    if (at == std::string::npos) break;
    parts.push_back(text.substr(start, at - start + 1));
    start = at + separator.size();
  }
  parts.push_back(text.substr(start));
  parts.resize(count);
  return parts;
}

const std::filesystem::path& scratch_dir() {
  static TempDir dir("kopt-fuzz-");
  return dir.path();
}

std::filesystem::path write_scratch(const std::string& name, const std::string& content) {
  const auto path = scratch_dir() / name;
  if (!write_file(path, content)) std::abort();
  return path;
}

}  // namespace kopt::fuzz
