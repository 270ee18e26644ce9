// `kopt roofline FILE` end to end on files written for it (tests/fixtures/roofline/file/):
// compiled where they lie, one answer per kernel, the first compiler error, "no kernel found".
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

namespace kopt {
namespace {

struct CliRun {
  std::string output;
  int code = -1;
};

CliRun kopt_roofline(const std::string& file, const std::string& options) {
  const std::string command = std::string(KOPT_BINARY) + " roofline " + KOPT_TEST_FIXTURES +
                              "/roofline/file/" + file + " " + options + " 2>&1";
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer{};
  while (pipe && fgets(buffer.data(), buffer.size(), pipe)) run.output += buffer.data();
  const int status = pipe ? pclose(pipe) : -1;
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

bool have_nvcc() {
  return std::filesystem::exists("/usr/local/cuda/bin/nvcc");
}

TEST(RooflineFileTest, CudaFileBuildsWithItsOwnHeaderAndAnswersPerKernel) {
  if (!have_nvcc()) GTEST_SKIP() << "nvcc not installed";
  const CliRun run =
      kopt_roofline("constructs.cu",
                    "--hardware rtx3080 --kernel tiled_matmul --launch 64x64,16x16 --args "
                    "_,_,_,1024 --json");
  ASSERT_EQ(run.code, 0) << run.output;
  const auto doc = nlohmann::json::parse(run.output.substr(run.output.find('{')));
  ASSERT_EQ(doc["kernels"].size(), 1u) << run.output;
  EXPECT_EQ(doc["kernels"][0]["class"], "compute-bound");
  EXPECT_NE(doc["kernels"][0]["assumptions"].dump().find("launch given"), std::string::npos);
}

TEST(RooflineFileTest, KernelWithoutGlobalTrafficGetsAStatementNotAClass) {
  if (!have_nvcc()) GTEST_SKIP() << "nvcc not installed";
  const CliRun run = kopt_roofline("constructs.cu", "--hardware h100 --kernel shared_only");
  EXPECT_EQ(run.code, 0) << run.output;
  EXPECT_NE(run.output.find("no global memory traffic"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("inf"), std::string::npos) << run.output;
}

TEST(RooflineFileTest, BuildFailureShowsTheFirstError) {
  if (!have_nvcc()) GTEST_SKIP() << "nvcc not installed";
  const CliRun run = kopt_roofline("broken.cu", "--hardware h100");
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.output.find("undeclared_first"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("undeclared_second"), std::string::npos) << run.output;
}

TEST(RooflineFileTest, FileWithoutKernelsSaysSo) {
  if (!have_nvcc()) GTEST_SKIP() << "nvcc not installed";
  const CliRun none = kopt_roofline("no_kernel.cu", "--hardware h100");
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.output.find("no kernel found"), std::string::npos) << none.output;
  EXPECT_EQ(none.output.find("bound"), std::string::npos) << none.output;
}

TEST(RooflineFileTest, CppFileGivesEachFunctionWithLoops) {
  const CliRun run = kopt_roofline("loops.cpp", "--hardware rtx3080 --json");
  ASSERT_EQ(run.code, 0) << run.output;
  const auto doc = nlohmann::json::parse(run.output.substr(run.output.find('{')));
  std::map<std::string, std::string> classes;
  for (const auto& k : doc["kernels"]) classes[k["kernel"]] = k["class"];
  EXPECT_EQ(classes["scale(double const*, double*, long)"], "bandwidth-bound") << run.output;
  EXPECT_EQ(classes["powers(double const*, double*, long)"], "compute-bound") << run.output;
}

TEST(RooflineFileTest, BadLaunchIsAUsageError) {
  const CliRun run = kopt_roofline("constructs.cu", "--hardware h100 --launch 12");
  EXPECT_EQ(run.code, 2) << run.output;
  EXPECT_NE(run.output.find("--launch"), std::string::npos) << run.output;
}

TEST(RooflineFileTest, MissingFileIsAUsageError) {
  const CliRun run = kopt_roofline("missing.cu", "--hardware h100");
  EXPECT_EQ(run.code, 2) << run.output;
  EXPECT_NE(run.output.find("no such file"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace kopt
