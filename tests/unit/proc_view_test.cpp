// The outside view of a process: a real child, seen through /proc by the test.
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "util/proc_view.h"

namespace kopt {

namespace {

// ThreadSanitizer's runtime runs a thread of its own in every instrumented process (its
// background thread), which the child's count then includes.
#if defined(__SANITIZE_THREAD__)
constexpr int kRuntimeThreads = 1;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr int kRuntimeThreads = 1;
#else
constexpr int kRuntimeThreads = 0;
#endif
#else
constexpr int kRuntimeThreads = 0;
#endif

// A child named `name` that runs a second thread burning CPU until killed.
pid_t spawn_busy_child(const char* name) {
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_NAME, name);
    std::atomic<bool> stop{false};
    std::thread burner([&] {
      volatile double x = 1;
      while (!stop) x = x * 1.0000001;
    });
    pause();
    _exit(0);
  }
  return pid;
}

double own_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

TEST(ProcViewTest, SeesAChildsThreadsAndCpuTimeFromOutside) {
  const pid_t child = spawn_busy_child("kopt-proc-test");
  ASSERT_GT(child, 0);
  std::optional<int> threads;
  for (int i = 0; i < 100 && threads.value_or(0) < 2 + kRuntimeThreads; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    threads = thread_count_of(child);
  }
  EXPECT_EQ(threads, 2 + kRuntimeThreads);
  // On a loaded machine the burning thread gets a share of a core: wait until it has had 50 ms,
  // up to 10 s, and check that no more was counted than the time that passed allows.
  const double before = cpu_seconds_of(child).value();
  const auto start = std::chrono::steady_clock::now();
  double used = 0;
  for (int i = 0; i < 200 && used <= 0.05; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    used = cpu_seconds_of(child).value() - before;
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(used, 0.05) << "the burning thread's CPU time counts for the process";
  EXPECT_LT(used, (wall + 0.05) * 2) << "at most two threads' worth of the time that passed";
  EXPECT_EQ(find_descendant(getpid(), "kopt-proc-test"), child);
  EXPECT_EQ(find_descendant(getpid(), "no-such-process"), std::nullopt);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_EQ(thread_count_of(child), std::nullopt);
  EXPECT_EQ(cpu_seconds_of(child), std::nullopt);
}

// The timing sums the CPU time of many short windows: a reading rounded to the clock tick (10 ms)
// would be off by up to a tick in each.
TEST(ProcViewTest, ReadsCpuTimeFinerThanAClockTick) {
  const double outside_before = cpu_seconds_of(getpid()).value();
  const double own_before = own_cpu_seconds();
  volatile double x = 1;
  while (own_cpu_seconds() - own_before < 0.003) x = x * 1.0000001;
  const double own = own_cpu_seconds() - own_before;
  const double outside = cpu_seconds_of(getpid()).value() - outside_before;
  EXPECT_NEAR(outside, own, 0.001) << "3 ms of CPU read from outside as " << outside << " s";
}

}  // namespace kopt
