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

}  // namespace

TEST(ProcViewTest, SeesAChildsThreadsAndCpuTimeFromOutside) {
  const pid_t child = spawn_busy_child("kopt-proc-test");
  ASSERT_GT(child, 0);
  std::optional<int> threads;
  for (int i = 0; i < 100 && threads.value_or(0) < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    threads = thread_count_of(child);
  }
  EXPECT_EQ(threads, 2);
  const double before = cpu_seconds_of(child).value();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double used = cpu_seconds_of(child).value() - before;
  EXPECT_GT(used, 0.05) << "the burning thread's CPU time counts for the process";
  EXPECT_LT(used, 0.35 * 2);
  EXPECT_EQ(find_descendant(getpid(), "kopt-proc-test"), child);
  EXPECT_EQ(find_descendant(getpid(), "no-such-process"), std::nullopt);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_EQ(thread_count_of(child), std::nullopt);
  EXPECT_EQ(cpu_seconds_of(child), std::nullopt);
}

}  // namespace kopt
