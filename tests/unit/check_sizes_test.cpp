// The order of the correctness stage over sizes (check_sizes): which sizes still run after a
// failure, and which diagnosis is kept.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tools/eval/check.h"

namespace kopt {

namespace {

// A check_size that fails with the category given for a size and passes every other, keeping
// the sizes it was asked for.
struct ScriptedSizes {
  std::map<long, std::string> failures;
  std::vector<long> asked;

  CheckCase operator()(long size) {
    asked.push_back(size);
    const auto it = failures.find(size);
    if (it == failures.end()) {
      CheckCase c;
      c.size = size;
      c.ok = true;
      return c;
    }
    return fail_case(size, it->second, "size " + std::to_string(size) + ": " + it->second);
  }
};

CheckOutcome run(ScriptedSizes& script, const std::vector<long>& sizes, long costly) {
  return check_sizes(
      sizes, {1, 2}, [&](size_t k) { return script(sizes[k]); }, costly);
}

}  // namespace

TEST(CheckSizesTest, AfterAWrongOutputTheSmallerSizesStillRunButNotTheCostlyOnes) {
  ScriptedSizes script{{{7, "wrong"}}, {}};
  const CheckOutcome outcome = run(script, {1, 7, 65, 3, 2048}, 2048);
  EXPECT_EQ(script.asked, (std::vector<long>{1, 7, 65, 3}));
  EXPECT_EQ(outcome.cases.size(), 4u);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.category, "wrong");
  EXPECT_EQ(outcome.reason, "size 7: wrong");
}

TEST(CheckSizesTest, ACostlySizeAmongTheOthersIsTheOnlyOneLeftOut) {
  ScriptedSizes script{{{1, "precision"}}, {}};
  const CheckOutcome outcome = run(script, {1, 7, 2048, 4096, 3}, 2048);
  EXPECT_EQ(script.asked, (std::vector<long>{1, 7, 3}));
  EXPECT_EQ(outcome.category, "precision");
}

TEST(CheckSizesTest, APassingCandidateRunsEverySizeTheCostlyOnesToo) {
  ScriptedSizes script;
  const CheckOutcome outcome = run(script, {1, 7, 65, 3, 2048}, 2048);
  EXPECT_EQ(script.asked, (std::vector<long>{1, 7, 65, 3, 2048}));
  EXPECT_TRUE(outcome.ok);
  EXPECT_EQ(outcome.cases.size(), 5u);
}

TEST(CheckSizesTest, ACostlySizeThatFailsFirstIsStillTheDiagnosis) {
  ScriptedSizes script{{{2048, "wrong"}}, {}};
  const CheckOutcome outcome = run(script, {1, 2048, 7}, 2048);
  EXPECT_EQ(script.asked, (std::vector<long>{1, 2048, 7}));
  EXPECT_EQ(outcome.reason, "size 2048: wrong");
}

TEST(CheckSizesTest, ALaterCacheIsTheMoreTellingDiagnosisAndEndsTheStage) {
  ScriptedSizes script{{{7, "wrong"}, {65, "cache"}}, {}};
  const CheckOutcome outcome = run(script, {1, 7, 65, 100}, 2048);
  EXPECT_EQ(script.asked, (std::vector<long>{1, 7, 65}));
  EXPECT_EQ(outcome.category, "cache");
  EXPECT_EQ(outcome.reason, "size 65: cache");
}

TEST(CheckSizesTest, AFailureOtherThanTheOutputsStopsTheStage) {
  ScriptedSizes script{{{7, "crash"}}, {}};
  const CheckOutcome outcome = run(script, {1, 7, 65}, 2048);
  EXPECT_EQ(script.asked, (std::vector<long>{1, 7}));
  EXPECT_EQ(outcome.category, "crash");
}

}  // namespace kopt
