// kopt import polybench on a PolyBench-shaped tree of kopt's own (tests/fixtures/polybench):
// each kernel becomes a folder by kopt new's path, sized by the dataset, checked and timed; a
// kernel that cannot be imported says why and the others go on; bad trees are usage errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "util/files.h"

namespace kopt {

namespace {

const std::filesystem::path kTree = std::filesystem::path(KOPT_TEST_FIXTURES) / "polybench";

const Json* row(const Json& report, const std::string& name) {
  for (const auto& r : report["kernels"])
    if (r["name"] == name) return &r;
  return nullptr;
}

}  // namespace

TEST(ImportCommandTest, EveryKernelOfATreeBecomesACheckedBenchmarkAndOneFailureStopsNone) {
  TempDir suite("kopt-import-");
  ProcessResult imported = test::run_kopt({"import", "polybench", kTree.string(), "--suite",
                                           suite.path().string(), "--dataset", "MINI", "--json"},
                                          std::chrono::seconds(600));
  EXPECT_EQ(imported.exit_code, 1) << imported.output;  // broken/ does not import.
  const Json report = test::last_json(imported.output);
  ASSERT_EQ(report["kernels"].size(), 4u) << imported.output;
  for (const std::string name : {"rowsum", "blur-1d", "scale"}) {
    const Json* r = row(report, name);
    ASSERT_NE(r, nullptr) << name;
    EXPECT_TRUE((*r)["imported"].get<bool>()) << *r;
    EXPECT_TRUE((*r)["clean"].get<bool>()) << *r;
    EXPECT_GT((*r)["time_ms"].get<double>(), 0) << *r;
  }
  const Json* broken = row(report, "broken");
  ASSERT_NE(broken, nullptr);
  EXPECT_FALSE((*broken)["imported"].get<bool>());
  EXPECT_NE((*broken)["reason"].get<std::string>().find("kernel_broken"), std::string::npos);

  // rowsum: n is the scale at the dataset's N = 30, m keeps its proportion (M = 40).
  const std::filesystem::path rowsum = suite.path() / "rowsum";
  const Json manifest = read_json_file(rowsum / "benchmark.json").value();
  EXPECT_EQ(manifest["size"]["time"], 30);
  EXPECT_EQ(manifest["size"]["names"]["m"], "(4*n + 2)/3");
  EXPECT_EQ(manifest["headers"], Json({"polybench.h", "rowsum.h"}));
  const auto flags = manifest["flags"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-DMINI_DATASET"), flags.end()) << manifest;
  const std::string original = read_file(rowsum / "original.cpp").value();
  EXPECT_EQ(original.find("main("), std::string::npos) << original;
  EXPECT_EQ(original.find("init("), std::string::npos) << original;
  EXPECT_NE(original.find("\nvoid kernel_rowsum("), std::string::npos) << original;
  // blur-1d: tsteps is a count, fixed at the dataset's TSTEPS; A is updated in place.
  const std::string driver = read_file(suite.path() / "blur-1d" / "driver.cpp").value();
  EXPECT_NE(driver.find("tsteps_ = 3;"), std::string::npos) << driver;
  EXPECT_NE(driver.find("inout(\"A\", A_)"), std::string::npos) << driver;

  ProcessResult eval =
      test::run_kopt({"eval", "rowsum", "--suite", suite.path().string(), "--no-time", "--json"});
  EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

TEST(ImportCommandTest, AFolderThatIsNotAPolybenchTreeIsAUsageError) {
  TempDir empty("kopt-import-");
  ProcessResult missing = test::run_kopt({"import", "polybench", "/no/such/polybench"});
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("no such folder"), std::string::npos) << missing.output;
  ProcessResult not_tree = test::run_kopt({"import", "polybench", empty.path().string()});
  EXPECT_EQ(not_tree.exit_code, 2) << not_tree.output;
  EXPECT_NE(not_tree.output.find("utilities/polybench.h"), std::string::npos) << not_tree.output;
  ProcessResult unknown = test::run_kopt({"import", "polybench", kTree.string(), "--only", "gemm"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
}

}  // namespace kopt
