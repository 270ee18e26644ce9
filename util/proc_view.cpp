#include "util/proc_view.h"

#include <unistd.h>

#include <ctime>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace kopt {

namespace {

std::string read_proc(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> children;
  std::istringstream in(
      read_proc("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"));
  for (pid_t child; in >> child;) children.push_back(child);
  return children;
}

std::string comm_of(pid_t pid) {
  std::string comm = read_proc("/proc/" + std::to_string(pid) + "/comm");
  while (!comm.empty() && comm.back() == '\n') comm.pop_back();
  return comm;
}

}  // namespace

std::optional<pid_t> find_descendant(pid_t ancestor, const std::string& comm) {
  std::vector<pid_t> pending = children_of(ancestor);
  for (size_t i = 0; i < pending.size() && i < 64; ++i) {
    if (comm_of(pending[i]) == comm) return pending[i];
    for (pid_t child : children_of(pending[i])) pending.push_back(child);
  }
  return std::nullopt;
}

std::optional<pid_t> find_process(pid_t root, const std::string& comm) {
  if (comm_of(root) == comm) return root;
  return find_descendant(root, comm);
}

std::optional<int> thread_count_of(pid_t pid) {
  const std::string status = read_proc("/proc/" + std::to_string(pid) + "/status");
  const size_t at = status.find("\nThreads:");
  if (at == std::string::npos) return std::nullopt;
  return std::atoi(status.c_str() + at + 9);
}

std::optional<double> cpu_seconds_of(pid_t pid) {
  if (pid <= 0) return std::nullopt;  // 0 would be this process's own clock.
  // The process's CPU clock: the scheduler's own sum of every thread's run time, in nanoseconds.
  // /proc/PID/stat rounds the same sum to clock ticks (10 ms), an error of up to a tick at each
  // read that adds up over the many windows the timing reads.
  clockid_t clock = 0;
  timespec now{};
  if (clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &now) == 0)
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  const std::string stat = read_proc("/proc/" + std::to_string(pid) + "/stat");
  // The command name, in parentheses, may hold spaces: the fields start after the last ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream in(stat.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int number = 3; number <= 15 && in >> field; ++number) {
    if (number == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (number == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  if (!in) return std::nullopt;
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

bool cpu_clock_readable(pid_t pid) {
  clockid_t clock = 0;
  timespec now{};
  return pid > 0 && clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &now) == 0;
}

std::optional<SchedStat> sched_stat_of(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  std::istringstream in(read_proc("/proc/" + std::to_string(pid) + "/schedstat"));
  unsigned long long running = 0, waiting = 0, slices = 0;
  if (!(in >> running >> waiting >> slices)) return std::nullopt;
  // A kernel that keeps no account shows zeros for a thread that has certainly run.
  if (running == 0 && slices == 0) return std::nullopt;
  return SchedStat{static_cast<double>(running) * 1e-9, static_cast<double>(waiting) * 1e-9};
}

}  // namespace kopt
