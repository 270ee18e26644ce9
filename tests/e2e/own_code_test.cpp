// A benchmark of the user's own kind: seidel1d (tests/fixtures/benchmarks) updates its array in
// place and has no human version. The harness restores what the kernel updates, the original
// checks against itself, and the commands say "no human version" instead of failing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "util/files.h"

namespace kopt {

namespace {

const std::filesystem::path kSuite = std::filesystem::path(KOPT_TEST_FIXTURES) / "benchmarks";

std::string suite() {
  return kSuite.string();
}

// Evaluates `source` as a seidel1d candidate, checked only.
Json check_candidate(const std::string& source) {
  TempDir dir("kopt-inplace-");
  EXPECT_TRUE(write_file(dir.path() / "kernel.cpp", source));
  ProcessResult r = test::run_kopt({"eval", "seidel1d", "--suite", suite(), "--variant",
                                    (dir.path() / "kernel.cpp").string(), "--no-time", "--json"});
  return test::last_json(r.output)["verdict"];
}

}  // namespace

TEST(OwnCodeTest, AnInPlaceOriginalPassesAgainstItself) {
  ProcessResult r = test::run_kopt({"eval", "seidel1d", "--suite", suite(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;  // Correct, and no faster than itself.
  const Json doc = test::last_json(r.output);
  EXPECT_EQ(doc["verdict"]["status"], "not-faster") << doc["verdict"];
  EXPECT_GT(doc["timing"]["captures_checked"].get<int>(), 0);
}

TEST(OwnCodeTest, AnInPlaceCandidateThatSkipsASweepOrWritesNothingIsWrong) {
  const std::string skips =
      "#include \"kernel.h\"\nvoid seidel1d(double* x, long n, int steps) {\n"
      "  for (int t = 1; t < steps; ++t)\n"
      "    for (long i = 1; i + 1 < n; ++i) x[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0;\n}\n";
  EXPECT_EQ(check_candidate(skips)["status"], "incorrect");
  const std::string nothing = "#include \"kernel.h\"\nvoid seidel1d(double*, long, int) {}\n";
  EXPECT_EQ(check_candidate(nothing)["status"], "incorrect");
  const std::string carried =
      read_file(std::filesystem::path(KOPT_TEST_FIXTURES) / "loop" / "seidel1d_carried.cpp")
          .value();
  EXPECT_EQ(check_candidate(carried)["status"], "correct");
}

TEST(OwnCodeTest, AnInPlaceArrayRegisteredAsAnOutputIsNamedAsTheCause) {
  TempDir copy("kopt-inplace-suite-");
  std::filesystem::copy(kSuite / "seidel1d", copy.path() / "seidel1d");
  std::string driver = read_file(copy.path() / "seidel1d" / "driver.cpp").value();
  const std::string registered = "inout(\"x\", x_)";
  driver.replace(driver.find(registered), registered.size(), "output(\"x\", x_)");
  ASSERT_TRUE(write_file(copy.path() / "seidel1d" / "driver.cpp", driver));
  ProcessResult r =
      test::run_kopt({"eval", "seidel1d", "--suite", copy.path().string(), "--no-time"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("registers it with inout()"), std::string::npos) << r.output;
}

TEST(OwnCodeTest, WithoutAHumanVersionBenchSaysSoAndEvalRefusesTheVariant) {
  ProcessResult bench = test::run_kopt({"bench", "seidel1d", "--suite", suite()});
  EXPECT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_NE(bench.output.find("no human version"), std::string::npos) << bench.output;

  ProcessResult eval =
      test::run_kopt({"eval", "seidel1d", "--suite", suite(), "--variant", "human"});
  EXPECT_EQ(eval.exit_code, 2);
  EXPECT_NE(eval.output.find("seidel1d has no human version"), std::string::npos) << eval.output;
}

}  // namespace kopt
