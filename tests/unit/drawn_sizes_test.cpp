// The sizes an evaluation draws beside the manifest's: their ranges, one of each remainder
// modulo 8, the seed that decides them, and the manifest's size.draw and size.max.
#include "tools/eval/drawn_sizes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tools/eval/check_plans.h"

namespace kopt {
namespace {

Benchmark linear(long top, long time) {
  Benchmark b;
  b.check_sizes = {1, 7, top};
  b.time_size = time;
  b.flops = "2*n";
  b.bytes = "16*n";
  return b;
}

std::vector<long> drawn_part(const Benchmark& b, uint64_t seed) {
  const std::vector<long> all = sizes_to_check(b, seed);
  return {all.begin() + static_cast<long>(b.check_sizes.size()), all.end()};
}

TEST(DrawnSizesTest, BelowTheLargestCheckSizeEveryRemainderModulo8ComesUp) {
  const Benchmark b = linear(4099, 1 << 22);
  for (uint64_t seed : {1u, 2u, 3u, 99u}) {
    const std::vector<long> drawn = drawn_part(b, seed);
    std::set<long> remainders;
    for (long n : drawn) {
      EXPECT_GE(n, 2);
      EXPECT_LE(n, 4099);
      EXPECT_EQ(std::count(b.check_sizes.begin(), b.check_sizes.end(), n), 0) << n;
      remainders.insert(n % 8);
    }
    EXPECT_EQ(remainders.size(), 8u) << "seed " << seed;
  }
}

TEST(DrawnSizesTest, TheSeedDecidesTheSizes) {
  const Benchmark b = linear(4099, 1 << 22);
  EXPECT_EQ(sizes_to_check(b, 42), sizes_to_check(b, 42));
  EXPECT_NE(sizes_to_check(b, 42), sizes_to_check(b, 43));
}

TEST(DrawnSizesTest, LargeSizesLieBetweenTheCheckSizesAndPastTheTimeSize) {
  const Benchmark b = linear(4099, 1 << 22);
  const std::vector<LargeSize> large = large_sizes_to_check(b, 7);
  ASSERT_EQ(large.size(), static_cast<size_t>(kDrawnSizes) + 8 + 1);
  std::set<long> remainders;
  for (size_t i = 0; i < static_cast<size_t>(kDrawnSizes); ++i) {
    EXPECT_GT(large[i].size, 4099);
    EXPECT_LT(large[i].size, 1 << 22);
    remainders.insert(large[i].size % 8);
  }
  EXPECT_EQ(remainders.size(), 8u);
  // The end of the domain: without size.max, the size of four times the time size's work
  // (past the next power of two above it), whatever the seed.
  EXPECT_EQ(large.back().size, 4L << 22);
  EXPECT_EQ(largest_checked_size(b), 4L << 22);
  EXPECT_EQ(large.back().seeds, 1u);
  EXPECT_EQ(large_sizes_to_check(b, 8).back().size, 4L << 22);
  // Between them, one size for each remainder modulo 8, the largest's too (red team 23: tails
  // wrong at n % 8 == 0 or 4 only past the time size passed an odd drawn size and an even
  // size.max; red team 24: a band below size.max at its remainder passed size.max alone), in
  // increasing order, whatever the seed.
  std::set<long> first_remainders;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const std::vector<LargeSize> l = large_sizes_to_check(b, seed);
    ASSERT_EQ(l.size(), static_cast<size_t>(kDrawnSizes) + 8 + 1);
    std::set<long> past;
    for (size_t i = kDrawnSizes; i + 1 < l.size(); ++i) {
      EXPECT_GT(l[i].size, 1L << 22);
      EXPECT_LT(l[i].size, 4L << 22);
      EXPECT_TRUE(l[i].past_time);
      if (i > static_cast<size_t>(kDrawnSizes)) {
        EXPECT_GT(l[i].size, l[i - 1].size);
      }
      past.insert(l[i].size % 8);
    }
    first_remainders.insert(l[kDrawnSizes].size % 8);
    EXPECT_EQ(past.size(), 8u);
    EXPECT_FALSE(l.back().past_time);
  }
  // The smallest past the time size, which calls a problem twice, is of any remainder.
  EXPECT_GT(first_remainders.size(), 4u);
}

TEST(DrawnSizesTest, SizeMaxIsTheSizeAboveTheTimeSize) {
  Benchmark b = linear(100, 1000);
  b.max_size = 1200;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<LargeSize> large = large_sizes_to_check(b, seed);
    for (const LargeSize& l : large) EXPECT_LE(l.size, 1200);
    ASSERT_FALSE(large.empty());
    EXPECT_EQ(large.back().size, 1200);  // A limit just below size.max is crossed too.
  }
  b.max_size = 1000;  // No size past the time size when the domain ends there.
  for (const LargeSize& l : large_sizes_to_check(b, 3)) EXPECT_LT(l.size, 1000);
}

TEST(DrawnSizesTest, DrawFalseLeavesTheManifestsListAlone) {
  Benchmark b = linear(4099, 1 << 22);
  b.draw_sizes = false;
  EXPECT_EQ(sizes_to_check(b, 5), b.check_sizes);
  EXPECT_TRUE(large_sizes_to_check(b, 5).empty());
}

TEST(DrawnSizesTest, LargestSizeWhereFindsTheEdgeOfAMonotonePredicate) {
  EXPECT_EQ(largest_size_where(10, 1000, [](long n) { return n * n <= 90000; }), 300);
  EXPECT_EQ(largest_size_where(10, 1000, [](long) { return true; }), 1000);
}

TEST(DrawnSizesTest, OpenMPRechecksUseTheManifestsSizesTheDrawnEndsAndTheTimeSize) {
  const Benchmark b = linear(4099, 1 << 22);
  const std::vector<SizePlan> plans = thread_recheck_plans(b, 7, 0);
  ASSERT_EQ(plans.size(), 7u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(plans[i].size, b.check_sizes[i]);
    EXPECT_TRUE(plans[i].edges);
  }
  // The smallest drawn below the time size with every edge case, the widest with one seed.
  const std::vector<LargeSize> large = large_sizes_to_check(b, 7);
  EXPECT_EQ(plans[3].size, large.front().size);
  EXPECT_TRUE(plans[3].edges);
  EXPECT_GT(plans[4].size, plans[3].size);
  EXPECT_LT(plans[4].size, 1L << 22);
  EXPECT_FALSE(plans[4].edges);
  EXPECT_EQ(plans[5].size, 1L << 22);  // The time size, where the timed calls run.
  EXPECT_EQ(plans[5].seeds, 1u);
  EXPECT_FALSE(plans[5].edges);
  // Past the time size, one drawn size with one seed, another for each count, the drawn
  // count's with every edge case (red team 25: a split by a fixed count of threads only past the
  // time size; red team 27: taps cut with many threads from 2^20 on met no edge case at another
  // count there).
  std::set<long> past;
  for (int count = 0; count < 3; ++count) {
    const SizePlan last = thread_recheck_plans(b, 7, count).back();
    EXPECT_GT(last.size, 1L << 22);
    EXPECT_LT(last.size, 4L << 22);
    EXPECT_EQ(last.seeds, 1u);
    EXPECT_EQ(last.edges, count == kDrawnRecheck);  // Every edge case at the drawn count.
    EXPECT_EQ(last.edge_stride, 1);
    past.insert(last.size);
  }
  EXPECT_EQ(past.size(), 3u);
}

TEST(DrawnSizesTest, RecheckThreadCountsDrawOneBetweenTheMachinesAndThePowerOfTwo) {
  for (const auto& [machine, power] : {std::pair{2, 256}, std::pair{8, 256}, std::pair{64, 512}}) {
    std::set<int> drawn;
    bool common = false, odd = false;
    for (uint64_t seed = 0; seed < 200; ++seed) {
      const std::vector<int> counts = recheck_thread_counts(machine, seed);
      ASSERT_EQ(counts.size(), 3u);
      EXPECT_EQ(counts.front(), 1);
      EXPECT_EQ(counts.back(), power);
      EXPECT_GT(counts[1], machine);
      EXPECT_LT(counts[1], power);
      EXPECT_EQ(recheck_thread_counts(machine, seed), counts);  // The seed decides.
      drawn.insert(counts[1]);
      common = common || counts[1] == 4 || counts[1] == 16 || counts[1] == 192;
      odd = odd || counts[1] % 2 == 1;
    }
    EXPECT_GT(drawn.size(), 40u) << machine;  // Not a handful of fixed counts.
    EXPECT_TRUE(odd) << machine;
    if (machine < 64) {
      EXPECT_TRUE(common) << machine;
    }
  }
}

TEST(DrawnSizesTest, LaterPlansCallOneProblemTwiceAtTheTimeSizeAndBothDrawnEnds) {
  const Benchmark b = linear(4099, 1 << 22);
  const std::vector<SizePlan> plans = later_plans(b, 7, check_plans(b, 7, false));
  ASSERT_GE(plans.size(), 4u);
  EXPECT_EQ(plans[0].size, 1L << 22);
  EXPECT_TRUE(plans[0].edges && plans[0].again);
  EXPECT_TRUE(plans[1].edges && plans[1].again);  // The smallest drawn: edges and a second call.
  long widest = 0;
  for (const SizePlan& p : plans)
    if (p.size < (1L << 22)) widest = std::max(widest, p.size);
  // The others below the time size share the edge cases out: each edge case at one of them.
  std::vector<int> offsets;
  int sharing = -1;  // Those below the time size but the first.
  for (const SizePlan& p : plans) sharing += p.size < (1L << 22);
  for (size_t i = 2; i < plans.size(); ++i) {
    if (plans[i].size > (1L << 22)) continue;
    EXPECT_EQ(plans[i].again, plans[i].size == widest) << plans[i].size;
    EXPECT_TRUE(plans[i].edges);
    EXPECT_EQ(plans[i].edge_stride, sharing);
    offsets.push_back(plans[i].edge_offset);
  }
  std::vector<int> expected(sharing);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int>(i);
  EXPECT_EQ(offsets, expected);
  // Above the time size: every edge case at one of the eight drawn sizes (which one drawn),
  // the smallest also calling a problem twice (red team 25: an edge case's path wrong only at
  // even sizes past the time size passed a third of the edge cases at one odd size); size.max
  // with its seed and every edge case.
  ASSERT_GE(plans.size(), 9u);
  std::set<int> past_offsets;
  for (size_t i = plans.size() - 9; i + 1 < plans.size(); ++i) {
    EXPECT_GT(plans[i].size, 1L << 22);
    EXPECT_TRUE(plans[i].edges);
    EXPECT_EQ(plans[i].edge_stride, 8);
    EXPECT_EQ(plans[i].again, i == plans.size() - 9);
    past_offsets.insert(plans[i].edge_offset);
  }
  EXPECT_EQ(past_offsets.size(), 8u);
  // size.max with every edge case (red team 27: a limit of one dimension alone past the time
  // size's, reached only by a line-shaped edge case near the largest size).
  EXPECT_TRUE(plans.back().edges);
  EXPECT_EQ(plans.back().edge_stride, 1);
  EXPECT_EQ(plans.back().size, 4L << 22);
  // Which size takes which edge case changes with the evaluation's seed.
  std::set<int> first_offsets;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<SizePlan> p = later_plans(b, seed, check_plans(b, seed, false));
    first_offsets.insert(p[p.size() - 9].edge_offset);
  }
  EXPECT_GT(first_offsets.size(), 3u);
}

}  // namespace
}  // namespace kopt
