// Running a child process with a wall-clock limit, resource limits and captured output. The
// child gets its own process group, so a timeout kills everything it started.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kopt {

/// Resource limits applied in the child before it runs (0 leaves a limit as it is).
struct ResourceLimits {
  uint64_t cpu_seconds = 0;
  uint64_t file_size_bytes = 0;
  uint64_t open_files = 0;
  uint64_t processes = 0;
  uint64_t address_space_bytes = 0;
};

/// What to run and how.
struct ProcessSpec {
  std::vector<std::string> argv;
  std::filesystem::path cwd;
  /// The complete environment of the child; nothing is inherited.
  std::map<std::string, std::string> env;
  /// Written to the child's standard input, which is then closed (empty: /dev/null).
  std::string input;
  std::chrono::milliseconds timeout{60000};
  /// Captured output beyond this many bytes is drained and dropped.
  size_t output_cap = 1 << 20;
  ResourceLimits limits;
  /// When running as root, switch the child to this unprivileged uid/gid (so process limits
  /// apply); ignored for other users.
  int run_as_uid = -1;
};

/// What happened.
struct ProcessResult {
  int exit_code = -1;  ///< Exit status, or -1 when killed by a signal.
  int signal = 0;      ///< The terminating signal, 0 if it exited.
  bool timed_out = false;
  bool spawn_failed = false;
  std::string output;  ///< stdout and stderr merged, in order, capped.
  bool output_truncated = false;
  double wall_seconds = 0;
  double cpu_seconds = 0;  ///< User plus system time of the child and its descendants.

  /// True for a normal exit with status 0.
  bool succeeded() const { return !timed_out && !spawn_failed && signal == 0 && exit_code == 0; }
  /// "exit status 2", "killed by SIGSEGV", "timed out after 10.0 s", ...
  std::string describe() const;
};

/// The seam through which kopt starts every process.
class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  /// Runs to completion or timeout; never throws for a failing child.
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
};

/// The real runner (Boost.Process underneath).
class LocalProcessRunner : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override;
};

/// Runs in a child between fork and exec (async-signal-safe calls only): its own process group,
/// the spec's limits and, when running as root, its unprivileged uid.
void prepare_child(const ProcessSpec& spec);

/// The current environment variables as a map (for callers that want to pass some on).
std::map<std::string, std::string> current_environment();

}  // namespace kopt
