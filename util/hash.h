// Content hashes used as cache keys and fingerprints (XXH3, 128 bits, hex).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kopt {

/// Accumulates bytes and returns a 32-character hex digest.
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  /// Adds a length-prefixed field, so ("ab","c") and ("a","bc") differ.
  Hasher& add(std::string_view field);
  /// Adds a file's name and content; a missing file adds a marker instead.
  Hasher& add_file(const std::filesystem::path& path);
  /// The digest of everything added so far.
  std::string hex() const;

 private:
  void* state_;
};

/// Hex digest of one string.
std::string hash_hex(std::string_view data);

}  // namespace kopt
