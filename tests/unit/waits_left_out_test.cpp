// A pair's blocks timed without their main threads' waits for a CPU (timing.cpp): only where
// both ran their calls on one thread, never below the time on the CPU, and never from figures
// kopt could not read.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tools/eval/timing.h"

namespace kopt {
namespace {

// A block of `wall` seconds whose main thread ran `running` and waited `waiting` of them,
// its process using `cpu` seconds on all its threads.
BlockTiming block(double wall, double running, double waiting, double cpu) {
  BlockTiming b;
  b.calls = 1;
  b.kernel_seconds = wall;
  b.main_running = running;
  b.main_waiting = waiting;
  b.window_cpu = cpu;
  return b;
}

TEST(WaitsLeftOutTest, OneThreadedBlocksLoseTheirWaits) {
  const Pair p{block(0.050, 0.030, 0.018, 0.030), block(0.040, 0.030, 0.008, 0.030)};
  const TimingOptions options;
  EXPECT_TRUE(on_one_thread(p.baseline));
  EXPECT_DOUBLE_EQ(waits_left_out(p, p.baseline, options), 0.018);
  EXPECT_DOUBLE_EQ(waits_left_out(p, p.candidate, options), 0.008);
}

TEST(WaitsLeftOutTest, AThreadedSideKeepsBothWallTimes) {
  // The candidate's process used 10 ms more CPU than its main thread: another thread ran, and
  // its turns on the CPUs cannot be told from another process's.
  const Pair p{block(0.050, 0.030, 0.018, 0.030), block(0.040, 0.030, 0.008, 0.040)};
  const TimingOptions options;
  EXPECT_FALSE(on_one_thread(p.candidate));
  EXPECT_EQ(waits_left_out(p, p.baseline, options), 0);
  EXPECT_EQ(waits_left_out(p, p.candidate, options), 0);
}

TEST(WaitsLeftOutTest, AThreadThatEndedInTheWindowStillCounts) {
  // The process clock keeps the CPU time of threads that ended: 0.3 ms beyond the main thread's.
  const Pair p{block(0.050, 0.030, 0.018, 0.030), block(0.040, 0.030, 0.008, 0.0303)};
  EXPECT_FALSE(on_one_thread(p.candidate));
  EXPECT_EQ(waits_left_out(p, p.candidate, TimingOptions{}), 0);
}

TEST(WaitsLeftOutTest, UnseenFiguresLeaveNothingOut) {
  const Pair p{block(0.050, -1, -1, 0.030), block(0.040, 0.030, 0.008, 0.030)};
  EXPECT_FALSE(on_one_thread(p.baseline));
  EXPECT_EQ(waits_left_out(p, p.candidate, TimingOptions{}), 0);
  const Pair q{block(0.050, 0.030, 0.018, -1), block(0.040, 0.030, 0.008, 0.030)};
  EXPECT_EQ(waits_left_out(q, q.candidate, TimingOptions{}), 0);
}

TEST(WaitsLeftOutTest, NeverMoreThanTheTimeOffTheCpu) {
  // Waits the scheduler counted past the window's wall time (a wake-up before "go") leave the
  // block its time on the CPU.
  const Pair p{block(0.050, 0.030, 0.040, 0.030), block(0.040, 0.030, 0.008, 0.030)};
  EXPECT_DOUBLE_EQ(waits_left_out(p, p.baseline, TimingOptions{}), 0.020);
}

TEST(WaitsLeftOutTest, SwitchedOffLeavesTheWallTime) {
  const Pair p{block(0.050, 0.030, 0.018, 0.030), block(0.040, 0.030, 0.008, 0.030)};
  TimingOptions options;
  options.leave_out_waits = false;
  EXPECT_EQ(waits_left_out(p, p.baseline, options), 0);
}

// `count` pairs of one-threaded blocks: each side's main thread on the CPU for `running`
// seconds and waiting a share of its runnable time drawn around `base_share` and `cand_share`.
std::vector<Pair> pairs_waiting(int count, double base_share, double cand_share) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> jitter(-0.08, 0.08);
  std::vector<Pair> pairs;
  for (int i = 0; i < count; ++i) {
    const double running = 0.030;
    const double b = std::clamp(base_share + jitter(rng), 0.0, 0.9);
    const double c = std::clamp(cand_share + jitter(rng), 0.0, 0.9);
    const double b_wait = running * b / (1 - b), c_wait = running * c / (1 - c);
    pairs.push_back({block(running + b_wait, running, b_wait, running),
                     block(running + c_wait, running, c_wait, running)});
  }
  return pairs;
}

TEST(WaitsLeftOutTest, LoadOnBothSidesIsLeftOut) {
  // Another process took a third of the CPU from both sides, more in some pairs than others.
  EXPECT_TRUE(waits_alike(pairs_waiting(64, 0.33, 0.33), TimingOptions{}));
  EXPECT_TRUE(waits_alike(pairs_waiting(64, 0.0, 0.0), TimingOptions{}));
}

TEST(WaitsLeftOutTest, ACandidateThatMakesItselfWaitKeepsItsWallTime) {
  // Pinned to a CPU a busy process holds (red team 30): half its runnable time waiting where
  // the baseline waited a few percent.
  EXPECT_FALSE(waits_alike(pairs_waiting(16, 0.03, 0.55), TimingOptions{}));
  // Its waits are its own, whichever side of the pair it ran on, even with the load on both.
  EXPECT_FALSE(waits_alike(pairs_waiting(64, 0.30, 0.45), TimingOptions{}));
  // Too few pairs to tell: the first looks come at 16.
  EXPECT_TRUE(waits_alike(pairs_waiting(4, 0.03, 0.55), TimingOptions{}));
}

TEST(WaitsLeftOutTest, ABaselineThatWaitsMoreIsNoReasonToDistrust) {
  EXPECT_TRUE(waits_alike(pairs_waiting(64, 0.40, 0.10), TimingOptions{}));
}

}  // namespace
}  // namespace kopt
