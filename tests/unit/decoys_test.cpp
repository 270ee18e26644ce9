#include "tools/eval/decoys.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace kopt {
namespace {

// Once covered, every edge case has run at every position of a timed block, each block's
// seeds in their places.
TEST(DecoysTest, CoverEveryEdgeCaseAtEveryPositionOfATimedBlock) {
  for (const auto& [edges, calls] : {std::pair{6, 1}, std::pair{6, 4}, std::pair{3, 8}}) {
    for (uint64_t draw = 0; draw < 5; ++draw) {
      Decoys decoys(edges, calls, draw);
      std::set<std::pair<int, int>> seen;  // (edge case, position)
      uint64_t seed = 100;
      int blocks = 0;
      while (!decoys.covered()) {
        std::vector<uint64_t> seeds;
        for (int j = 0; j < calls; ++j) seeds.push_back(seed++);
        const std::vector<DriverInput> block = decoys.next(seeds);
        ASSERT_EQ(block.size(), static_cast<size_t>(calls));
        for (int j = 0; j < calls; ++j) {
          EXPECT_EQ(block[j].seed, seeds[j]);
          EXPECT_FALSE(block[j].again);
          ASSERT_GE(block[j].edge, 0);
          ASSERT_LT(block[j].edge, edges);
          seen.insert({block[j].edge, j});
        }
        ASSERT_LE(++blocks, edges);
      }
      EXPECT_EQ(seen.size(), static_cast<size_t>(edges * calls)) << edges << " " << calls;
    }
  }
}

TEST(DecoysTest, RunAtAboutOneRoundInEightAndNeverWithoutEdgeCases) {
  Decoys decoys(4, 2, 7);
  int due = 0;
  for (int round = 0; round < 8000; ++round) due += decoys.due();
  EXPECT_GT(due, 800);
  EXPECT_LT(due, 1200);
  Decoys none(0, 3, 7);
  EXPECT_TRUE(none.covered());
  for (int round = 0; round < 100; ++round) EXPECT_FALSE(none.due());
}

}  // namespace
}  // namespace kopt
