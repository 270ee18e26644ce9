#include "sandbox/process.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "util/files.h"
#include "util/strings.h"

extern char** environ;

namespace kopt {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

namespace {

void set_limit(int resource, uint64_t value) {
  if (value == 0) return;
  rlimit limit{value, value};
  setrlimit(resource, &limit);
}

}  // namespace

void prepare_child(const ProcessSpec& spec) {
  setpgid(0, 0);
  set_limit(RLIMIT_CPU, spec.limits.cpu_seconds);
  set_limit(RLIMIT_FSIZE, spec.limits.file_size_bytes);
  set_limit(RLIMIT_NOFILE, spec.limits.open_files);
  set_limit(RLIMIT_NPROC, spec.limits.processes);
  set_limit(RLIMIT_AS, spec.limits.address_space_bytes);
  if (spec.run_as_uid >= 0 && geteuid() == 0) {
    const auto id = static_cast<uid_t>(spec.run_as_uid);
    if (setgroups(0, nullptr) != 0 || setresgid(id, id, id) != 0 || setresuid(id, id, id) != 0)
      _exit(127);
  }
  signal(SIGPIPE, SIG_DFL);
}

namespace {

// Reads the merged output until EOF or the deadline; returns false on timeout.
bool drain(int fd, Clock::time_point deadline, size_t cap, ProcessResult& result) {
  char buffer[65536];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    size_t room = cap > result.output.size() ? cap - result.output.size() : 0;
    result.output.append(buffer, std::min<size_t>(room, static_cast<size_t>(n)));
    if (static_cast<size_t>(n) > room) result.output_truncated = true;
  }
}

void close_on_exec(const bp::pipe& p) {
  fcntl(p.native_source(), F_SETFD, FD_CLOEXEC);
  fcntl(p.native_sink(), F_SETFD, FD_CLOEXEC);
}

// Pipes are created and handed to a child under one lock, so a child spawned concurrently by
// another thread never inherits our ends (which would hold our EOF hostage).
std::mutex spawn_mutex;

// Feeds the child's standard input from a thread, so a child that writes a lot before reading
// cannot deadlock against us.
std::thread feed(int fd, const std::string& input) {
  return std::thread([fd, &input] {
    size_t done = 0;
    while (done < input.size()) {
      ssize_t n = write(fd, input.data() + done, input.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // The child closed its end: it does not want more.
      done += static_cast<size_t>(n);
    }
    ::close(fd);
  });
}

// Resolves a bare program name through the child's PATH, as a shell would.
std::string resolve(const std::string& program, const std::map<std::string, std::string>& env) {
  if (program.find('/') != std::string::npos) return program;
  auto path = env.find("PATH");
  const std::string found =
      find_executable(program, split(path == env.end() ? "/usr/bin:/bin" : path->second, ':'));
  return found.empty() ? program : found;
}

// Boost.Process 1.74 compares "KEY=" with every entry over the length of "KEY=" when it looks a
// key up, reading past the end of a shorter entry (AddressSanitizer caught it). Inserting the
// longest keys first keeps every entry it compares at least that long.
bp::environment boost_environment(const std::map<std::string, std::string>& variables) {
  std::vector<const std::pair<const std::string, std::string>*> order;
  for (const auto& variable : variables) order.push_back(&variable);
  std::stable_sort(order.begin(), order.end(),
                   [](auto* a, auto* b) { return a->first.size() > b->first.size(); });
  bp::environment env;
  for (const auto* variable : order) env[variable->first] = variable->second;
  return env;
}

}  // namespace

std::string ProcessResult::describe() const {
  if (spawn_failed) return "could not start: " + output;
  if (timed_out) return "timed out after " + std::to_string(wall_seconds).substr(0, 5) + " s";
  if (signal) return std::string("killed by SIG") + sigabbrev_np(signal);
  return "exit status " + std::to_string(exit_code);
}

ProcessResult LocalProcessRunner::run(const ProcessSpec& spec) {
  static const bool ignore_sigpipe = [] { return ::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  (void)ignore_sigpipe;
  ProcessResult result;
  const auto start = Clock::now();
  bp::environment env = boost_environment(spec.env);
  std::unique_lock<std::mutex> spawning(spawn_mutex);
  bp::pipe pipe;
  bp::pipe input;
  close_on_exec(pipe);
  close_on_exec(input);
  std::error_code ec;
  bp::child child(
      resolve(spec.argv.front(), spec.env),
      bp::args(std::vector<std::string>(spec.argv.begin() + 1, spec.argv.end())),
      bp::start_dir(spec.cwd.empty() ? std::filesystem::current_path().string()
                                     : spec.cwd.string()),
      env, (bp::std_out & bp::std_err) > pipe, bp::std_in < input, ec,
      bp::extend::on_exec_setup = [&spec](auto&) { prepare_child(spec); });
  ::close(input.native_source());
  input.assign_source(-1);
  ::close(pipe.native_sink());  // Only the child writes; EOF comes when it and its heirs exit.
  pipe.assign_sink(-1);
  spawning.unlock();
  std::thread feeder = feed(input.native_sink(), spec.input);
  input.assign_sink(-1);
  if (ec) {
    feeder.join();
    result.spawn_failed = true;
    result.output = spec.argv.front() + ": " + ec.message();
    return result;
  }
  const pid_t pid = child.id();
  const bool finished = drain(pipe.native_source(), start + spec.timeout, spec.output_cap, result);
  if (!finished) {
    result.timed_out = true;
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  }
  feeder.join();
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  child.detach();
  ::kill(-pid, SIGKILL);  // Anything the child left behind in its group.
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.cpu_seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                       1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; *entry; ++entry) {
    std::string text = *entry;
    auto eq = text.find('=');
    if (eq != std::string::npos) env[text.substr(0, eq)] = text.substr(eq + 1);
  }
  return env;
}

}  // namespace kopt
