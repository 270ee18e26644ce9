// Small file-system helpers whose failures are values.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/result.h"

namespace kopt {

/// The most read_file takes by default: 256 MiB. Larger inputs are refused, not truncated.
inline constexpr size_t kMaxFileBytes = size_t{256} << 20;

/// Reads a whole file, only if it is a regular file (a FIFO, a device or a folder is refused
/// without blocking) and at most `max_bytes` long; a longer file is an error naming the limit.
/// The one place kopt reads a file of untrusted content.
Result<std::string> read_file(const std::filesystem::path& path, size_t max_bytes = kMaxFileBytes);

/// Writes a whole file, creating parent folders.
Status write_file(const std::filesystem::path& path, const std::string& content);

/// Writes through a temporary sibling and renames it over `path`, so readers never see a
/// partial file.
Status write_file_atomic(const std::filesystem::path& path, const std::string& content);

/// Appends `text` to `path` (created when missing) in one write under an exclusive flock, and
/// syncs it: lines appended by several processes at once never interleave.
Status append_locked(const std::filesystem::path& path, const std::string& text);

/// A path as a message shows it: quoted, whole up to 200 bytes, else its start and its length
/// (a name of thousands of characters would bury the message's reason).
std::string quoted_path(const std::filesystem::path& path);

/// The first `dir/name` among `dirs` that is executable (empty entries are skipped), or "".
std::string find_executable(const std::string& name, const std::vector<std::string>& dirs);

/// Creates a fresh, empty, uniquely named folder under `parent`: PREFIX<pid>-<random>, named
/// after this process so that remove_orphaned_dirs can tell when its owner is gone.
Result<std::filesystem::path> make_unique_dir(const std::filesystem::path& parent,
                                              const std::string& prefix);

/// Removes the folders make_unique_dir made under `parent` with a name starting with `prefix`
/// ("" for every kind) for processes that no longer exist (left behind by a kopt killed with -9);
/// returns how many.
int remove_orphaned_dirs(const std::filesystem::path& parent, const std::string& prefix);

/// A folder removed with everything in it when this object goes away.
class TempDir {
 public:
  /// Creates a fresh folder under `parent` (the system temporary folder when empty).
  explicit TempDir(const std::string& prefix, std::filesystem::path parent = {});
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// Leaves the folder on disk when this object goes away.
  void keep() { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

/// The user's cache folder for kopt: $KOPT_CACHE_DIR, else $XDG_CACHE_HOME/kopt, else
/// ~/.cache/kopt.
std::filesystem::path cache_dir();

}  // namespace kopt
