#include "util/file_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

Result<int> open_lock_file(const fs::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return fail("cannot open the lock " + path.string() + ": " + std::strerror(errno));
  (void)::fchmod(fd, 0666);  // A host-wide lock is shared by every user's kopt.
  return fd;
}

void write_holder(int fd, const std::string& note) {
  const std::string line = "pid " + std::to_string(::getpid()) + ": " + note + "\n";
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, line.data(), line.size(), 0);
}

}  // namespace

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  std::swap(fd_, other.fd_);
  return *this;
}

Result<FileLock> FileLock::try_lock(const fs::path& path, const std::string& note) {
  auto fd = open_lock_file(path);
  if (!fd) return fd.error();
  if (::flock(*fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(*fd);
    if (error != EWOULDBLOCK)
      return fail("cannot lock " + path.string() + ": " + std::strerror(error));
    return fail("held by " + holder(path));
  }
  FileLock held;
  held.fd_ = *fd;
  write_holder(held.fd_, note);
  return held;
}

Result<FileLock> FileLock::lock(const fs::path& path, const std::string& note,
                                const std::function<void(const std::string&)>& waiting,
                                bool shared) {
  auto fd = open_lock_file(path);
  if (!fd) return fd.error();
  const int kind = shared ? LOCK_SH : LOCK_EX;
  int status = ::flock(*fd, kind | LOCK_NB);
  if (status != 0 && errno == EWOULDBLOCK) {
    if (waiting) waiting(holder(path));
    while ((status = ::flock(*fd, kind)) != 0 && errno == EINTR) {
    }
  }
  if (status != 0) {
    const int error = errno;
    ::close(*fd);
    return fail("cannot lock " + path.string() + ": " + std::strerror(error));
  }
  FileLock held;
  held.fd_ = *fd;
  write_holder(held.fd_, note);  // Of shared holders, the latest names itself.
  return held;
}

bool FileLock::holder_alive(const fs::path& path) {
  auto text = read_file(path);
  if (!text || !starts_with(*text, "pid ")) return false;
  const long pid = std::strtol(text->c_str() + 4, nullptr, 10);
  if (pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

std::string FileLock::holder(const fs::path& path) {
  // The holder writes its line just after it takes the lock: an empty file is a holder that has
  // not written yet, so look again for a moment before calling it anonymous.
  for (int attempt = 0; attempt < 20; ++attempt) {
    auto text = read_file(path);
    const std::string line = text ? trim(*text) : "";
    if (!line.empty()) return line;
    ::usleep(10000);
  }
  return "another process";
}

}  // namespace kopt
