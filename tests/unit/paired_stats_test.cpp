#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "tools/eval/paired_test.h"

namespace kopt {

namespace {

std::vector<double> log_ratios(double speedup, double noise, int pairs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> jitter(0, noise);
  std::vector<double> r;
  for (int i = 0; i < pairs; ++i) r.push_back(std::log(speedup) + jitter(rng));
  return r;
}

}  // namespace

TEST(PairedTest, SignedRankIsExactForFewPairs) {
  // Ranks of |x| 1..10, all positive but the largest: W+ = 45 of 55. Of the 1024 equally likely
  // sign patterns, 43 give W+ <= 10 (the mirror tail), so the two-sided p is 86 / 1024.
  std::vector<double> x = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, -1.0};
  EXPECT_NEAR(wilcoxon_paired(x, 0.05).p_value, 86.0 / 1024, 1e-12);
  // All ten of one sign: p = 2 / 1024, the smallest ten pairs can give.
  EXPECT_NEAR(wilcoxon_paired({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.01).p_value, 2.0 / 1024, 1e-12);
}

TEST(PairedTest, SignedRankWithTiesUsesTheNormalApproximation) {
  // Ranks 1..10 with the two largest tied (9.5 each), one of them negative: W+ = 36 + 9.5 =
  // 45.5 of 55; mean 27.5, variance 96.25 - 6/48; with continuity correction z = 17.5 / 9.8044.
  std::vector<double> x = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, -0.9};
  EXPECT_NEAR(wilcoxon_paired(x, 0.05).p_value, std::erfc(17.5 / 9.8044 / std::sqrt(2.0)), 1e-4);
}

TEST(PairedTest, IntervalMatchesTheExactTest) {
  // n = 10 at alpha 0.05: P(W+ <= 8) = 25/1024 <= 0.025 < P(W+ <= 9) = 33/1024, so the interval
  // runs from the 9th smallest to the 9th largest Walsh average; a p below alpha excludes 1.
  std::vector<double> x = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  std::vector<double> walsh;
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = i; j < x.size(); ++j) walsh.push_back((x[i] + x[j]) / 2);
  std::sort(walsh.begin(), walsh.end());
  const PairedResult r = wilcoxon_paired(x, 0.05);
  EXPECT_NEAR(std::log(r.low), walsh[8], 1e-12);
  EXPECT_NEAR(std::log(r.high), walsh[walsh.size() - 9], 1e-12);
  EXPECT_TRUE(r.significant);
}

TEST(PairedTest, TooFewPairsCannotDecide) {
  // Eight pairs all of one sign: p = 2/256, above a per-look alpha of 0.01/3.
  const PairedResult r = wilcoxon_paired({1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7}, 0.01 / 3);
  EXPECT_FALSE(r.significant);
  EXPECT_NEAR(r.p_value, 2.0 / 256, 1e-12);
  EXPECT_EQ(LookPlan{}.min_decisive_pairs(), 10);  // 2/1024 < 0.0025 <= 2/512.
  // At 12 pairs the interval leaves out the 3 smallest Walsh averages (at 10 and 11, 0 and 1).
  EXPECT_EQ(LookPlan{}.min_robust_pairs(), 12);
}

TEST(PairedTest, EstimateIsTheMedianOfWalshAverages) {
  // Walsh averages of {0, 1, 5}: 0, 0.5, 2.5, 1, 3, 5; their median is (1 + 2.5) / 2.
  EXPECT_NEAR(std::log(wilcoxon_paired({0, 1, 5}, 0.05).speedup), 1.75, 1e-12);
}

TEST(PairedTest, SameKernelIsRarelySignificant) {
  int significant = 0;
  for (uint64_t seed = 0; seed < 2000; ++seed)
    significant += wilcoxon_paired(log_ratios(1.0, 0.05, 32, seed), 0.01).significant;
  EXPECT_LE(significant, 2000 * 0.015);  // Calibrated: about alpha.
}

TEST(PairedTest, TenPercentWinIsFoundThroughNoise) {
  int found = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const PairedResult r = wilcoxon_paired(log_ratios(1.10, 0.08, 32, seed), 0.01 / 3);
    found += r.significant && r.low > 1;
  }
  EXPECT_GE(found, 190);
}

TEST(PairedTest, IntervalHoldsTheTrueSpeedup) {
  int covered = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const PairedResult r = wilcoxon_paired(log_ratios(1.3, 0.1, 24, seed), 0.05);
    covered += r.low <= 1.3 && 1.3 <= r.high;
  }
  EXPECT_GE(covered, 930);
}

TEST(PairedTest, IdenticalBlocksAreNoDifference) {
  const PairedResult r = wilcoxon_paired(std::vector<double>(20, 0.0), 0.01);
  EXPECT_FALSE(r.significant);
  EXPECT_DOUBLE_EQ(r.p_value, 1);
  EXPECT_DOUBLE_EQ(r.speedup, 1);
}

TEST(PairedTest, LookPlanSplitsAlphaOverItsLooks) {
  LookPlan plan;
  EXPECT_NEAR(plan.alpha_per_look() * static_cast<double>(plan.looks.size()), plan.alpha, 1e-15);
  EXPECT_TRUE(plan.is_look(plan.looks.front()));
  EXPECT_FALSE(plan.is_look(plan.looks.front() + 1));
  EXPECT_EQ(plan.max_pairs(), plan.looks.back());
}

// A difference two processes of one binary can show is no win, however many pairs pin it down.
TEST(PairedTest, AnIntervalMustClearTheProcessFloor) {
  PairedResult r;
  r.low = 1.021, r.high = 1.047;  // An unchanged copy of licm's original, p = 4e-5.
  EXPECT_FALSE(clears_floor(r, 0.04));
  EXPECT_TRUE(clears_floor(r, 0.02));
  r.low = 1.055, r.high = 1.2;
  EXPECT_TRUE(clears_floor(r, 0.04));
  r.low = 0.95, r.high = 0.97;  // Above 1 / 1.04 = 0.9615: inside the floor.
  EXPECT_FALSE(clears_floor(r, 0.04));
  r.high = 0.96;
  EXPECT_TRUE(clears_floor(r, 0.04));
}

}  // namespace kopt
