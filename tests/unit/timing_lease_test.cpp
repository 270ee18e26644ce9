// The host-wide timing lease and the file lock under it, raced by real processes.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <thread>

#include "util/file_lock.h"
#include "util/files.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::system_clock;

double now_s() {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

// Forks a child that holds a TimingLease for `hold` and appends "start end" to `log`.
pid_t time_in_child(const fs::path& log, std::chrono::milliseconds hold) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  {
    TimingLease lease("test child");
    const double start = now_s();
    std::this_thread::sleep_for(hold);
    std::ofstream(log, std::ios::app) << start << " " << now_s() << "\n";
  }
  std::_Exit(0);
}

class TimingLeaseTest : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("KOPT_LEASE_DIR", dir_.path().c_str(), 1); }
  void TearDown() override { ::unsetenv("KOPT_LEASE_DIR"); }
  TempDir dir_{"kopt-lease-test-"};
};

}  // namespace

TEST(FileLockTest, ASecondHolderIsRefusedWithTheFirstOnesPid) {
  TempDir dir("kopt-lock-test-");
  auto first = FileLock::try_lock(dir.path() / "lock", "kopt resume");
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = FileLock::try_lock(dir.path() / "lock", "kopt resume");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().message, "held by pid " + std::to_string(::getpid()) + ": kopt resume");
}

TEST(FileLockTest, ALockIsFreeOnceItsHolderIsKilled) {
  TempDir dir("kopt-lock-test-");
  const fs::path path = dir.path() / "lock";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    auto held = FileLock::try_lock(path, "child");
    (void)!::write(ready[1], held ? "1" : "0", 1);
    ::pause();  // Killed below, holding the lock.
    std::_Exit(0);
  }
  char locked = 0;
  ASSERT_EQ(::read(ready[0], &locked, 1), 1);
  ASSERT_EQ(locked, '1');
  auto refused = FileLock::try_lock(path, "parent");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("pid " + std::to_string(pid) + ": child"),
            std::string::npos);
  EXPECT_TRUE(FileLock::holder_alive(path));
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  EXPECT_FALSE(FileLock::holder_alive(path)) << "a reader sees the holder is gone";
  EXPECT_TRUE(FileLock::try_lock(path, "parent").ok());
  EXPECT_TRUE(FileLock::holder_alive(path));
}

TEST_F(TimingLeaseTest, TwoProcessesNeverTimeAtOnce) {
  const fs::path log = dir_.path() / "intervals";
  const pid_t a = time_in_child(log, std::chrono::milliseconds(400));
  const pid_t b = time_in_child(log, std::chrono::milliseconds(400));
  ::waitpid(a, nullptr, 0);
  ::waitpid(b, nullptr, 0);
  std::ifstream in(log);
  double s1 = 0, e1 = 0, s2 = 0, e2 = 0;
  ASSERT_TRUE(in >> s1 >> e1 >> s2 >> e2);
  EXPECT_TRUE(e1 <= s2 || e2 <= s1)
      << "[" << s1 << ", " << e1 << "] overlaps [" << s2 << ", " << e2 << "]";
}

TEST_F(TimingLeaseTest, TheWaitingProcessSaysWhoItWaitsFor) {
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t pid = ::fork();  // Before the lease: the child must not inherit its descriptors.
  if (pid == 0) {
    const std::string file = (dir_.path() / "said").string();
    if (!std::freopen(file.c_str(), "w", stderr)) std::_Exit(2);  // Read by the parent.
    char byte = 0;
    if (::read(go[0], &byte, 1) != 1) std::_Exit(3);
    TimingLease lease("kopt machine: probe");
    std::fflush(stderr);
    std::_Exit(lease.waited() ? 0 : 1);
  }
  std::optional<TimingLease> held;
  held.emplace("kopt eval licm: timing");
  (void)!::write(go[1], "g", 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  held.reset();
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const std::string said = read_file(dir_.path() / "said").value_or("");
  EXPECT_NE(said.find("waits for cpu"), std::string::npos) << said;
  EXPECT_NE(said.find("held by pid " + std::to_string(::getpid()) + ": kopt eval licm: timing"),
            std::string::npos)
      << said;
}

TEST_F(TimingLeaseTest, OneFilePerCpuOfTheProcessAndOnePerGpu) {
  TimingLease lease("test", 3);
  const auto cpus = TimingLease::cpu_set();
  ASSERT_FALSE(cpus.empty());
  ASSERT_EQ(lease.files().size(), cpus.size() + 1);
  EXPECT_EQ(lease.files().front().filename(), "cpu" + std::to_string(cpus.front()) + ".lock");
  EXPECT_EQ(lease.files().back().filename(), "gpu3.lock");
}

}  // namespace kopt
