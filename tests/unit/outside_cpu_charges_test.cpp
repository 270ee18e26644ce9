// The charge for CPU time a candidate's process spends outside its timed window (timing.cpp):
// noise between two processes doing the same harness work costs nothing, while work moved out
// of the calls is charged whether it is spread over every pair or kept to a few.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "tools/eval/timing.h"

namespace kopt {
namespace {

// Pairs whose candidate blocks take `block` seconds; both sides spend `fill` seconds of CPU
// outside the window, the candidate `extra[i]` more in pair i, and both with some noise.
std::vector<Pair> pairs_with(const std::vector<double>& extra, double block, double fill,
                             double noise, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> jitter(0, noise);
  std::vector<Pair> pairs;
  for (double e : extra) {
    Pair p;
    p.candidate.kernel_seconds = p.baseline.kernel_seconds = block;
    p.baseline.outside_cpu = fill + jitter(rng);
    p.candidate.outside_cpu = fill + jitter(rng) + e;
    pairs.push_back(p);
  }
  return pairs;
}

double total(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

TEST(OutsideCpuChargesTest, NoiseAloneIsNotCharged) {
  // spmv-like: a 300 ms fill per pair, 2 ms of noise on each side, a 20 ms block.
  const auto charges = outside_cpu_charges(
      pairs_with(std::vector<double>(32, 0.0), 0.020, 0.300, 0.002), TimingOptions{});
  EXPECT_LT(total(charges), 32 * 0.001) << "at most the noise's mean, a fraction of a block";
}

TEST(OutsideCpuChargesTest, WorkSpreadOverEveryPairIsChargedToEveryPair) {
  // 90% of a 20 ms block moved into the fill, in every pair.
  const auto charges = outside_cpu_charges(
      pairs_with(std::vector<double>(32, 0.018), 0.002, 0.300, 0.002), TimingOptions{});
  for (double c : charges) EXPECT_GT(c, 0.012);
  EXPECT_GT(total(charges), 32 * 0.014);
}

TEST(OutsideCpuChargesTest, WorkKeptToAFewPairsIsChargedWhereItStandsOut) {
  std::vector<double> extra(32, 0.0);
  for (int i : {3, 9, 17, 25, 30}) extra[i] = 0.030;
  const auto charges =
      outside_cpu_charges(pairs_with(extra, 0.020, 0.300, 0.0005), TimingOptions{});
  const TimingOptions options;
  const double allowance =
      options.outside_cpu_allowance * 0.020 + options.outside_cpu_floor_seconds;
  for (int i : {3, 9, 17, 25, 30}) EXPECT_GT(charges[i], 0.030 - allowance - 0.003) << "pair " << i;
  // All of it but the allowance in those pairs and the part below the outlier threshold (three
  // robust standard deviations of the noise, 1.5 ms here) that was spread over every pair.
  EXPECT_GT(total(charges), 5 * (0.030 - allowance - 0.0015) - 0.003);
  EXPECT_LT(total(charges), 5 * 0.030 + 0.003);
}

TEST(OutsideCpuChargesTest, AWorkloadBelowTheAllowanceIsFree) {
  // Half a percent of the block, as a kernel leaving the cache in another state might cost.
  const auto charges = outside_cpu_charges(
      pairs_with(std::vector<double>(16, 0.0001), 0.020, 0.050, 0.00001), TimingOptions{});
  EXPECT_EQ(total(charges), 0.0);
}

TEST(OutsideCpuChargesTest, UnseenCpuTimeChargesNothing) {
  auto pairs = pairs_with(std::vector<double>(8, 0.05), 0.020, 0.300, 0.0);
  for (auto& p : pairs) p.candidate.outside_cpu = -1;
  EXPECT_EQ(total(outside_cpu_charges(pairs, TimingOptions{})), 0.0);
}

}  // namespace
}  // namespace kopt
