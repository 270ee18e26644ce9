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
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path dir = parent / (prefix + std::to_string(entropy() % 100000000));
    if (fs::create_directory(dir, ec)) return dir;
  }
  return fail("cannot create a folder under " + parent.string());
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
