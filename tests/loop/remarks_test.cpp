// The analyst's compiler remarks: those about the hot lines first, the rest by line, within a
// budget that says what it left out.
#include <gtest/gtest.h>

#include "agent/loop/remarks.h"

namespace kopt {
namespace {

const std::string kRemarks =
    "kernel.cpp:3:5: missed: statement clobbers memory: __builtin_memset\n"
    "kernel.cpp:12:20: missed: couldn't vectorize loop\n"
    "kernel.cpp:12:20: missed: not vectorized: complicated access pattern.\n"
    "kernel.cpp:7:18: optimized: loop vectorized using 32 byte vectors\n"
    "kernel.cpp:9:3: missed: statement clobbers memory: free\n";

TEST(RemarksTest, HotLinesComeFirstHottestFirstThenTheRestByLine) {
  const std::string text = ranked_remarks(kRemarks, {{12, 0.80}, {7, 0.15}, {9, 0.004}}, 3000);
  EXPECT_EQ(text,
            "Line 12 (80% of the time):\n"
            "kernel.cpp:12:20: missed: couldn't vectorize loop\n"
            "kernel.cpp:12:20: missed: not vectorized: complicated access pattern.\n"
            "Line 7 (15% of the time):\n"
            "kernel.cpp:7:18: optimized: loop vectorized using 32 byte vectors\n"
            "Other lines:\n"
            "kernel.cpp:3:5: missed: statement clobbers memory: __builtin_memset\n"
            "kernel.cpp:9:3: missed: statement clobbers memory: free\n");
}

TEST(RemarksTest, AShortBudgetKeepsTheHotLineAndCountsWhatItLeftOut) {
  const std::string text = ranked_remarks(kRemarks, {{12, 0.80}}, 140);
  EXPECT_EQ(text,
            "Line 12 (80% of the time):\n"
            "kernel.cpp:12:20: missed: couldn't vectorize loop\n"
            "(4 more remarks left out, on colder lines)\n");
}

TEST(RemarksTest, WithoutAProfileTheRemarksGoByLine) {
  EXPECT_EQ(ranked_remarks(kRemarks, {}, 3000).substr(0, 20), "kernel.cpp:3:5: miss");
  EXPECT_EQ(ranked_remarks("", {{3, 1.0}}, 3000), "");
}

TEST(RemarksTest, HotLinesAreReadFromTheProfileHottestFirst) {
  const Json profile = Json::parse(R"({"lines": [{"line": 4, "share": 0.1},
      {"line": 9, "share": 0.7}, {"line": "x", "share": 0.2}, {"share": 0.1}]})");
  const std::vector<HotLine> lines = hot_lines(profile);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], HotLine(9, 0.7));
  EXPECT_EQ(lines[1], HotLine(4, 0.1));
  EXPECT_TRUE(hot_lines(Json::array()).empty());
}

}  // namespace
}  // namespace kopt
