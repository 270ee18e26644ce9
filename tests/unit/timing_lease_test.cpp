// The host-wide timing lease and the file lock under it, raced by real processes.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
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

// Forks a child that holds a lease of `kind` for `hold` and appends "KIND start end" to `log`.
pid_t time_in_child(const fs::path& log, std::chrono::milliseconds hold,
                    LeaseKind kind = LeaseKind::timing) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  {
    TimingLease lease("test child", -1, kind);
    const double start = now_s();
    std::this_thread::sleep_for(hold);
    std::ofstream out(log, std::ios::app);
    out << std::fixed << std::setprecision(6) << (kind == LeaseKind::timing ? "timing " : "work ")
        << start << " " << now_s() << "\n";
  }
  std::_Exit(0);
}

struct Interval {
  std::string kind;
  double start = 0, end = 0;
  bool overlaps(const Interval& o) const { return start < o.end && o.start < end; }
};

std::vector<Interval> intervals(const fs::path& log) {
  std::vector<Interval> out;
  std::ifstream in(log);
  for (Interval i; in >> i.kind >> i.start >> i.end;) out.push_back(i);
  return out;
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
  const auto spans = intervals(log);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_FALSE(spans[0].overlaps(spans[1]))
      << "[" << spans[0].start << ", " << spans[0].end << "] overlaps [" << spans[1].start << ", "
      << spans[1].end << "]";
}

// Builds, checks, profiles and a local model's answers run beside each other (--jobs), but
// never while a timing holds the CPUs, and no timing starts while one of them runs.
TEST_F(TimingLeaseTest, WorkRunsBesideWorkButNeverBesideATiming) {
  const fs::path log = dir_.path() / "intervals";
  std::vector<pid_t> children = {
      time_in_child(log, std::chrono::milliseconds(600), LeaseKind::work),
      time_in_child(log, std::chrono::milliseconds(600), LeaseKind::work)};
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  children.push_back(time_in_child(log, std::chrono::milliseconds(300)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  children.push_back(time_in_child(log, std::chrono::milliseconds(300), LeaseKind::work));
  for (pid_t pid : children) ::waitpid(pid, nullptr, 0);
  const auto spans = intervals(log);
  ASSERT_EQ(spans.size(), 4u);
  std::vector<Interval> work, timing;
  for (const auto& span : spans) (span.kind == "work" ? work : timing).push_back(span);
  ASSERT_EQ(timing.size(), 1u);
  EXPECT_TRUE(work[0].overlaps(work[1])) << "two work leases waited for each other";
  for (const auto& w : work) EXPECT_FALSE(w.overlaps(timing[0])) << "work ran during a timing";
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
