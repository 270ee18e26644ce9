// What the kernel (the operating system's) says about a process, read from /proc by another
// process: the judging side's view of a sandboxed driver, which nothing inside the driver can
// forge.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace kopt {

/// The first descendant of `ancestor` (itself excluded) whose command name is `comm`, found
/// through /proc/PID/task/PID/children; nullopt when there is none (yet).
std::optional<pid_t> find_descendant(pid_t ancestor, const std::string& comm);

/// `root` itself when its command name is `comm`, else find_descendant(root, comm).
std::optional<pid_t> find_process(pid_t root, const std::string& comm);

/// Threads alive in process `pid` ("Threads:" of /proc/PID/status), or nullopt.
std::optional<int> thread_count_of(pid_t pid);

/// CPU time (user + system) process `pid` has used, every thread's, those that ended included,
/// in seconds: read from its CPU clock (nanoseconds), or where that cannot be read from
/// /proc/PID/stat (clock ticks); nullopt when the process is gone.
std::optional<double> cpu_seconds_of(pid_t pid);

/// Whether process `pid`'s CPU clock (nanoseconds) can be read from here: cpu_seconds_of
/// otherwise falls back to clock ticks (10 ms), too coarse to tell threads apart in a block.
bool cpu_clock_readable(pid_t pid);

/// The scheduler's account of one thread (/proc/PID/schedstat: the thread-group leader when
/// `pid` names a process): its time on a CPU and its time runnable but waiting for one, in
/// seconds.
struct SchedStat {
  double running = 0;
  double waiting = 0;
};

/// The account of thread `pid`, or nullopt when the kernel keeps none (CONFIG_SCHED_INFO off)
/// or the thread is gone.
std::optional<SchedStat> sched_stat_of(pid_t pid);

}  // namespace kopt
