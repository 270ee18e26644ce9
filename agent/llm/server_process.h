// A long-running child such as a local model server, as opposed to sandbox/process.h's
// run-to-completion children. It runs in its own process group with its output in a log file;
// the group is killed when this object goes away, and the kernel kills the child if kopt dies
// (PR_SET_PDEATHSIG, armed from a watcher thread that lives exactly as long as the child, since
// the signal follows the forking thread, not the process).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "util/result.h"

namespace kopt::llm {

/// What to start.
struct ServerSpec {
  std::vector<std::string> argv;           ///< argv[0] is looked up in PATH without a '/'.
  std::map<std::string, std::string> env;  ///< The child's whole environment.
  std::filesystem::path log;               ///< Standard output and error go here.
};

/// A started server process.
class ServerProcess {
 public:
  /// Starts the child; an Error when it cannot be executed at all.
  static Result<std::unique_ptr<ServerProcess>> start(const ServerSpec& spec);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  /// True until the child exits.
  bool running() const;
  /// "exit status 1", "killed by SIGSEGV", or "running".
  std::string status() const;
  /// The last `bytes` of its output.
  std::string output_tail(size_t bytes = 2000) const;
  /// The child's pid (and process group id).
  pid_t pid() const { return pid_; }
  /// SIGTERM to the group, SIGKILL after `grace`; waits for the child. Idempotent.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));

 private:
  ServerProcess() = default;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::thread watcher_;
  std::filesystem::path log_;
  pid_t pid_ = -1;
  bool started_ = false;
  bool exited_ = false;
  int wait_status_ = 0;
  std::string spawn_error_;
};

/// A TCP port on 127.0.0.1 that was free a moment ago.
Result<int> free_loopback_port();

}  // namespace kopt::llm
