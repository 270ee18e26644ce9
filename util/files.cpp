#include "util/files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>

#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// Closes a descriptor when it goes out of scope.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<std::string> read_file(const fs::path& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
  FdGuard file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) return fail("cannot open " + path.string() + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode))
    return fail(path.string() + " is not a regular file");
  std::string content;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(file.fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail("cannot read " + path.string() + ": " + std::strerror(errno));
    if (got == 0) return content;
    if (content.size() + static_cast<size_t>(got) > max_bytes)
      return fail(path.string() + " is larger than the limit of " + std::to_string(max_bytes) +
                  " bytes");
    content.append(buffer, static_cast<size_t>(got));
  }
}

Status write_file(const fs::path& path, const std::string& content) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return fail("cannot write " + path.string());
  out << content;
  out.close();
  if (!out) return fail("cannot write " + path.string());
  return {};
}

Status write_file_atomic(const fs::path& path, const std::string& content) {
  fs::path temp = path;
  temp += ".tmp" + std::to_string(::getpid());
  if (auto st = write_file(temp, content); !st) return st;
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) return fail("cannot rename " + temp.string() + " to " + path.string());
  return {};
}

Status append_locked(const std::filesystem::path& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return fail("cannot append to " + path.string() + ": " + std::strerror(errno));
  ::flock(fd, LOCK_EX);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const bool ok = written == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) return fail("cannot append to " + path.string());
  return {};
}

std::string quoted_path(const fs::path& path) {
  const std::string text = path.string();
  if (text.size() <= 200) return "'" + text + "'";
  return "'" + one_line_excerpt(text, 120) + "' (" + std::to_string(text.size()) + " characters)";
}

std::string find_executable(const std::string& name, const std::vector<std::string>& dirs) {
  for (const auto& dir : dirs) {
    const std::string candidate = dir + "/" + name;
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

Result<fs::path> make_unique_dir(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  std::random_device entropy;
  const std::string owner = std::to_string(::getpid()) + "-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path dir = parent / (prefix + owner + std::to_string(entropy() % 100000000));
    if (fs::create_directory(dir, ec)) return dir;
  }
  return fail("cannot create a folder under " + parent.string());
}

namespace {

// The pid in a name make_unique_dir made (PREFIX<pid>-<random>) that starts with `prefix`, or 0.
long owner_of(const std::string& name, const std::string& prefix) {
  const size_t last = name.rfind('-');
  if (last == std::string::npos || last == 0 || name.rfind(prefix, 0) != 0) return 0;
  const size_t before = name.rfind('-', last - 1);
  if (before == std::string::npos || before + 1 < prefix.size()) return 0;
  const std::string pid = name.substr(before + 1, last - before - 1);
  const std::string random = name.substr(last + 1);
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  return digits(pid) && digits(random) ? std::stol(pid) : 0;
}

}  // namespace

int remove_orphaned_dirs(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  int removed = 0;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const long pid = owner_of(entry.path().filename().string(), prefix);
    if (pid <= 0 || fs::exists("/proc/" + std::to_string(pid), ec)) continue;
    if (fs::remove_all(entry.path(), ec) > 0 && !ec) ++removed;
  }
  return removed;
}

TempDir::TempDir(const std::string& prefix, fs::path parent) {
  if (parent.empty()) parent = fs::temp_directory_path();
  auto dir = make_unique_dir(parent, prefix);
  if (!dir) throw std::runtime_error(dir.error().message);
  path_ = *dir;
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path cache_dir() {
  if (const char* dir = std::getenv("KOPT_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "kopt";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "kopt";
  return fs::temp_directory_path() / "kopt-cache";
}

}  // namespace kopt
