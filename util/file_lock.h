// A flock(2) on a file, exclusive unless asked shared, held until the object goes away (or the
// process dies: the kernel drops the lock with the last descriptor, so a process killed with -9
// never leaves a stale lock). The holder writes "pid N: NOTE" into the file so that others can name
// it.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "util/result.h"

namespace kopt {

class FileLock {
 public:
  FileLock() = default;
  ~FileLock();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  /// Takes the lock without waiting; an Error naming the holder ("held by pid N: NOTE") when
  /// another process (or another descriptor of this one) holds it.
  static Result<FileLock> try_lock(const std::filesystem::path& path, const std::string& note);
  /// Takes the lock, waiting as long as it takes; `waiting` is called once, with the holder's
  /// line, when it has to wait. A shared lock waits only for an exclusive holder, and any
  /// number of processes hold it at once.
  static Result<FileLock> lock(const std::filesystem::path& path, const std::string& note,
                               const std::function<void(const std::string&)>& waiting,
                               bool shared = false);
  /// The holder's line as written in the file ("pid N: NOTE"), or "another process".
  static std::string holder(const std::filesystem::path& path);
  /// False when the process the holder line names ("pid N: ...") no longer exists, or the file
  /// names none: whatever it was doing under the lock ended without it (a Ctrl-C, kill -9).
  /// Reads only; takes no lock. A pid reused since reads as alive.
  static bool holder_alive(const std::filesystem::path& path);

  /// True while this object holds a lock.
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace kopt
