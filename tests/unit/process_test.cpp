#include "sandbox/process.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "../support/kopt_cli.h"

namespace kopt {

namespace {

using test::count_processes;

ProcessResult sh(const std::string& script,
                 std::chrono::milliseconds timeout = std::chrono::seconds(20),
                 std::string input = {}) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.timeout = timeout;
  spec.input = std::move(input);
  return LocalProcessRunner().run(spec);
}

}  // namespace

TEST(ProcessTest, MergesOutputAndReportsExitStatus) {
  ProcessResult r = sh("echo out; echo err >&2; exit 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.output, "out\nerr\n");
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.describe(), "exit status 3");
}

TEST(ProcessTest, ReportsTheKillingSignal) {
  ProcessResult r = sh("kill -SEGV $$");
  EXPECT_EQ(r.signal, 11);
  EXPECT_EQ(r.describe(), "killed by SIGSEGV");
}

TEST(ProcessTest, TimeoutKillsTheWholeProcessGroup) {
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = sh("sleep 3017 & sleep 3017; echo never", std::chrono::milliseconds(500));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(seconds, 5);
  EXPECT_EQ(r.output.find("never"), std::string::npos);
  // SIGKILL is delivered at once, but a loaded machine may take a moment to tear a process down.
  int left = count_processes({"sleep", "3017"});
  for (int i = 0; i < 50 && left > 0; ++i) {
    usleep(100000);
    left = count_processes({"sleep", "3017"});
  }
  EXPECT_EQ(left, 0);
}

TEST(ProcessTest, OutputBeyondTheCapIsDrainedAndDropped) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "head -c 1000000 /dev/zero"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.output_cap = 1000;
  ProcessResult r = LocalProcessRunner().run(spec);
  EXPECT_TRUE(r.succeeded());
  EXPECT_EQ(r.output.size(), 1000u);
  EXPECT_TRUE(r.output_truncated);
}

TEST(ProcessTest, LargeInputAndOutputDoNotDeadlock) {
  const std::string input(4 << 20, 'x');
  ProcessResult r = sh("cat", std::chrono::seconds(20), input);
  ASSERT_TRUE(r.succeeded()) << r.describe();
  EXPECT_EQ(r.output.size(), std::min<size_t>(input.size(), 1 << 20));
}

TEST(ProcessTest, EnvironmentIsExactlyWhatWasGiven) {
  setenv("KOPT_TEST_SECRET", "hunter2", 1);
  ProcessResult r = sh("env");
  EXPECT_EQ(r.output.find("hunter2"), std::string::npos);
  EXPECT_NE(r.output.find("PATH=/usr/bin:/bin"), std::string::npos);
}

TEST(ProcessTest, MissingProgramIsASpawnFailure) {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/program"};
  ProcessResult r = LocalProcessRunner().run(spec);
  EXPECT_FALSE(r.succeeded());
  EXPECT_TRUE(r.spawn_failed || r.exit_code == 127) << r.describe();
}

TEST(ProcessTest, CpuTimeLimitStopsABusyLoop) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "while :; do :; done"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.limits.cpu_seconds = 1;
  spec.timeout = std::chrono::seconds(30);
  ProcessResult r = LocalProcessRunner().run(spec);
  EXPECT_FALSE(r.timed_out);
  EXPECT_TRUE(r.signal == 24 || r.signal == 9) << r.describe();  // SIGXCPU, then SIGKILL.
}

}  // namespace kopt
