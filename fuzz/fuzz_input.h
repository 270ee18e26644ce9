// What every fuzz target shares: the input as text, split into parts, or written to a file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kopt::fuzz {

/// The input as a string.
inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Parts of a text that holds several files, separated by lines "====" (the seeds join real
/// files that way); always `count` parts, the missing ones empty.
std::vector<std::string> split_parts(const std::string& text, size_t count);

/// A folder of this process's own, made once, for targets whose parser reads files.
const std::filesystem::path& scratch_dir();

/// Writes `content` to scratch_dir()/name (parent folders created) and returns the path.
std::filesystem::path write_scratch(const std::string& name, const std::string& content);

}  // namespace kopt::fuzz
