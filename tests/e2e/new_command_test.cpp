// kopt new on kernels written the PolyBench way (tests/fixtures/newbench): the folder it writes
// checks cleanly with kopt eval, several sizes reach the driver, and a wrong role is explained.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "util/files.h"

namespace kopt {

namespace {

const std::filesystem::path kKernels = std::filesystem::path(KOPT_TEST_FIXTURES) / "newbench";

}  // namespace

// atax: pointer parameters with restrict, two sizes (m, n), two outputs.
TEST(NewCommandTest, AKernelFileBecomesABenchmarkWhoseOriginalChecksCleanly) {
  TempDir suite("kopt-new-");
  ProcessResult made =
      test::run_kopt({"new", "atax", "--from", (kKernels / "atax.c").string(), "--function",
                      "kernel_atax", "--suite", suite.path().string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  EXPECT_NE(made.output.find("check      ok"), std::string::npos) << made.output;
  const Json manifest = read_json_file(suite.path() / "atax" / "benchmark.json").value();
  EXPECT_EQ(manifest["dialect"], "c");
  EXPECT_EQ(manifest["size"]["names"]["m"], "n + 1");
  EXPECT_GE(manifest["size"]["time"].get<long>(), 65);
  EXPECT_NE(manifest["work"]["flops"], "0") << manifest["work"];
  const std::string driver = read_file(suite.path() / "atax" / "driver.cpp").value();
  EXPECT_NE(driver.find("output(\"y\", y_)"), std::string::npos) << driver;

  ProcessResult eval =
      test::run_kopt({"eval", "atax", "--suite", suite.path().string(), "--no-time", "--json"});
  EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

// seidel-2d updates its VLA grid in place; declared an output, its original fails its own
// check, and kopt new says which option fixes it.
TEST(NewCommandTest, AWrongRoleIsExplainedWithTheOptionThatFixesIt) {
  TempDir suite("kopt-new-");
  ProcessResult made =
      test::run_kopt({"new", "seidel", "--from", (kKernels / "seidel2d.c").string(), "--function",
                      "kernel_seidel_2d", "--suite", suite.path().string(), "--role", "A=out"});
  EXPECT_EQ(made.exit_code, 1) << made.output;
  EXPECT_NE(made.output.find("--role A=inout"), std::string::npos) << made.output;
}

}  // namespace kopt
