#include "tools/eval/stats.h"

#include <gtest/gtest.h>

#include <random>

namespace kopt {

namespace {

Runs noisy_runs(double center, double noise, int runs, int per_run, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> jitter(0, noise);
  Runs result(runs);
  for (auto& run : result)
    for (int i = 0; i < per_run; ++i) run.push_back(center + jitter(rng));
  return result;
}

}  // namespace

TEST(StatsTest, QuantileInterpolates) {
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3}, 0), 1);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3}, 1), 3);
}

TEST(StatsTest, SpreadPoolsAllRuns) {
  Spread s = spread({{1, 2}, {3, 4, 5}});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
}

TEST(StatsTest, MannWhitneyMatchesTextbookValue) {
  // Rank sum of a = 22, so U = 1; mean 18, variance 39; with continuity correction
  // z = 16.5 / sqrt(39) = 2.642 and the two-sided p = 0.00824.
  std::vector<double> a = {1, 2, 3, 4, 5, 7}, b = {6, 8, 9, 10, 11, 12};
  const double p = mann_whitney_p(a, b);
  EXPECT_NEAR(p, 0.00824, 0.0001);
  EXPECT_DOUBLE_EQ(mann_whitney_p(a, b), mann_whitney_p(b, a));
}

TEST(StatsTest, IdenticalSamplesAreNotSignificant) {
  std::vector<double> same(50, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p(same, same), 1.0);
}

TEST(StatsTest, TwoFoldSpeedupIsFoundWithATightInterval) {
  Runs slow = noisy_runs(2.0, 0.02, 5, 30, 1), fast = noisy_runs(1.0, 0.01, 5, 30, 2);
  SpeedupInterval s = bootstrap_speedup(slow, fast, 0.95, 2000, 7);
  EXPECT_NEAR(s.speedup, 2.0, 0.02);
  EXPECT_LT(s.low, s.speedup);
  EXPECT_GT(s.high, s.speedup);
  EXPECT_GT(s.low, 1.9);
  EXPECT_LT(mann_whitney_p(pooled(slow), pooled(fast)), 1e-10);
}

TEST(StatsTest, InsignificantDifferenceIsNotAWin) {
  Runs a = noisy_runs(1.0, 0.05, 4, 20, 3), b = noisy_runs(1.0, 0.05, 4, 20, 4);
  SpeedupInterval s = bootstrap_speedup(a, b, 0.95, 2000, 7);
  EXPECT_LT(s.low, 1.0);
  EXPECT_GT(s.high, 1.0);
}

TEST(StatsTest, ProcessToProcessDriftWidensTheInterval) {
  // Calls inside each process are tight, but processes disagree by 10%: the interval must
  // reflect the processes, not the thousands of calls.
  Runs drifting = {{1.0, 1.0, 1.0}, {1.1, 1.1, 1.1}, {0.9, 0.9, 0.9}};
  Runs steady = {{1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}};
  SpeedupInterval s = bootstrap_speedup(drifting, steady, 0.95, 2000, 7);
  EXPECT_LE(s.low, 0.95);
  EXPECT_GE(s.high, 1.05);
}

TEST(StatsTest, BootstrapIsReproducibleForASeed) {
  Runs a = noisy_runs(2.0, 0.1, 3, 10, 5), b = noisy_runs(1.0, 0.1, 3, 10, 6);
  SpeedupInterval x = bootstrap_speedup(a, b, 0.95, 500, 11),
                  y = bootstrap_speedup(a, b, 0.95, 500, 11);
  EXPECT_DOUBLE_EQ(x.low, y.low);
  EXPECT_DOUBLE_EQ(x.high, y.high);
}

}  // namespace kopt
