#include "util/files.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace kopt {

namespace fs = std::filesystem;

Result<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open " + path.string());
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return fail("cannot read " + path.string());
  return buffer.str();
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

// The pid in a name make_unique_dir made with `prefix` (PREFIX<pid>-<random>), or 0.
long owner_of(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return 0;
  const std::string rest = name.substr(prefix.size());
  const size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string::npos || dash + 1 == rest.size()) return 0;
  const auto digits = [](const std::string& s) {
    return s.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string pid = rest.substr(0, dash);
  if (!digits(pid) || !digits(rest.substr(dash + 1)) || pid.size() > 9) return 0;
  return std::stol(pid);
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
