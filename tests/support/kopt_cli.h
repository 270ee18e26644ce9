// Running the real kopt binary from tests, with the cache the tests share.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "util/json.h"

namespace kopt::test {

/// The cache folder every test shares: built drivers and kernels and the measured machine model
/// are reused from test to test (ctest runs each test in a process of its own, which would
/// otherwise build the benchmark and measure the machine for each one, about 20 seconds). Its
/// entries are keyed by the toolchain and the CPU and written atomically, so tests running side
/// by side and sessions on another CPU share it safely.
inline const std::filesystem::path& test_cache() {
  static const std::filesystem::path dir = [] {
    auto path =
        std::filesystem::temp_directory_path() / ("kopt-test-cache-" + std::to_string(::getuid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  return dir;
}

/// Runs `kopt ARGS...` and returns what happened (stdout and stderr merged). The roofline gate
/// judges against the generous fixture machine (tests/fixtures/machine/generous.json) unless
/// `extra_env` names another KOPT_MACHINE_MODEL, so that no verdict depends on the load under
/// which the host happened to be measured.
inline ProcessResult run_kopt(const std::vector<std::string>& args,
                              std::chrono::seconds timeout = std::chrono::seconds(300),
                              std::map<std::string, std::string> extra_env = {}) {
  ProcessSpec spec;
  spec.argv = {KOPT_BINARY};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = {{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"},
              {"HOME", std::getenv("HOME") ? std::getenv("HOME") : "/tmp"},
              {"KOPT_CACHE_DIR", test_cache().string()},
              {"KOPT_MACHINE_MODEL",
               (std::filesystem::path(KOPT_TEST_FIXTURES) / "machine" / "generous.json").string()}};
  for (auto& [key, value] : extra_env) spec.env[key] = value;
  spec.timeout = timeout;
  spec.output_cap = 16 << 20;
  return LocalProcessRunner().run(spec);
}

/// Parses the JSON document at the end of kopt's output (after any status lines).
inline Json last_json(const std::string& output) {
  const size_t start =
      output.find("\n{") != std::string::npos ? output.find("\n{") + 1 : output.find('{');
  auto parsed = parse_json(output.substr(start == std::string::npos ? 0 : start), "kopt output");
  return parsed ? *parsed : Json();
}

/// Every process's command line, arguments separated by NULs (read from /proc).
inline std::vector<std::string> process_command_lines() {
  std::vector<std::string> lines;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    lines.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return lines;
}

/// The command line of process `pid` (arguments separated by NULs), "" once it is gone.
inline std::string command_line_of(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The parent of process `pid`, or 0 once it is gone.
inline long parent_of(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');  // The name may hold spaces and parentheses.
  if (close == std::string::npos) return 0;
  char state = 0;
  long parent = 0;
  return std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &parent) == 2 ? parent : 0;
}

/// Processes whose command line starts with `prefix` and that no running kopt started (no
/// ancestor is kopt or one of its test binaries, kopt_*_tests): what an evaluation left behind
/// after its kopt ended (re-parented to init, as nothing here is a subreaper), told apart from
/// the drivers of other tests' evaluations still running beside it.
inline int count_orphans_with_prefix(const std::string& prefix) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::stol(name);
    if (command_line_of(pid).rfind(prefix, 0) != 0) continue;
    bool owned = false;
    for (long up = parent_of(pid); up > 1 && !owned; up = parent_of(up)) {
      const std::string argv0 = command_line_of(up).c_str();
      owned = std::filesystem::path(argv0).filename().string().rfind("kopt", 0) == 0;
    }
    count += !owned;
  }
  return count;
}

/// Processes whose command line is exactly `argv` (nothing matches the counting process).
inline int count_processes(const std::vector<std::string>& argv) {
  std::string wanted;
  for (const auto& arg : argv) wanted += arg + '\0';
  int count = 0;
  for (const auto& cmdline : process_command_lines()) count += cmdline == wanted;
  return count;
}

/// What follows `tag` on its line in `text` (a cheat file's "// expect: "), or "".
inline std::string tag_value(const std::string& text, const std::string& tag) {
  const auto at = text.find(tag);
  if (at == std::string::npos) return "";
  return text.substr(at + tag.size(), text.find('\n', at) - at - tag.size());
}

/// The repository's root (benchmarks/, tests/cheats/).
inline std::filesystem::path source_root() {
  return std::filesystem::path(KOPT_TEST_FIXTURES).parent_path().parent_path();
}

}  // namespace kopt::test
