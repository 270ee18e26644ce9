// Every cheating candidate in tests/cheats/triad_cuda is evaluated by the real kopt binary on the
// GPU path. Without a GPU each must still build, and kopt must say that no GPU is present; the
// verdicts themselves need a GPU, and those tests skip with the reason.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "../support/kopt_cli.h"
#include "gpu_test_support.h"

namespace kopt {

namespace {

struct GpuCheat {
  std::string file;
  std::string expected_category;  ///< `// expect: CATEGORY`: rejected for this reason.
  std::string expected_verdict;   ///< `// expect-verdict: not-faster`: timed, and no win.
  bool needs_timing = false;
};

void PrintTo(const GpuCheat& cheat, std::ostream* out) {
  *out << cheat.file;
}

std::vector<GpuCheat> all_gpu_cheats() {
  std::vector<GpuCheat> cheats;
  const auto dir = test::source_root() / "tests" / "cheats" / "triad_cuda";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".cu") continue;
    const std::string text = read_file(entry.path()).value();
    cheats.push_back({entry.path().string(), test::tag_value(text, "// expect: "),
                      test::tag_value(text, "// expect-verdict: "),
                      text.find("// needs: timing") != std::string::npos});
  }
  std::sort(cheats.begin(), cheats.end(), [](auto& a, auto& b) { return a.file < b.file; });
  return cheats;
}

std::string name_of(const ::testing::TestParamInfo<GpuCheat>& info) {
  return std::filesystem::path(info.param.file).stem().string();
}

Json evaluate(const GpuCheat& cheat, ProcessResult& r) {
  std::vector<std::string> args = {"eval",   "triad_cuda",      "--variant", cheat.file,
                                   "--json", "--timing-budget", "3"};
  if (!cheat.needs_timing) args.push_back("--no-time");
  r = test::run_kopt(args);
  return test::last_json(r.output);
}

}  // namespace

class GpuCheatTest : public ::testing::TestWithParam<GpuCheat> {};

TEST_P(GpuCheatTest, BuildsAndWithoutAGpuIsToldSo) {
  if (test::find_nvcc().empty()) GTEST_SKIP() << "nvcc is not installed";
  if (gpu_present()) GTEST_SKIP() << "a GPU is present: IsTurnedAwayOnTheGpu judges this cheat";
  ProcessResult r;
  const Json doc = evaluate(GetParam(), r);
  ASSERT_TRUE(doc.is_object()) << r.output;
  EXPECT_TRUE(doc["build"]["ok"].get<bool>()) << doc["build"].dump();
  EXPECT_EQ(doc["verdict"]["category"], "no-gpu") << doc["verdict"].dump();
  EXPECT_NE(doc["verdict"]["reason"].get<std::string>().find("no GPU present"), std::string::npos);
  EXPECT_NE(r.exit_code, 0);
}

TEST_P(GpuCheatTest, IsTurnedAwayOnTheGpu) {
  if (auto why = test::no_gpu_reason(); !why.empty()) GTEST_SKIP() << why;
  const GpuCheat& cheat = GetParam();
  ASSERT_FALSE(cheat.expected_category.empty() && cheat.expected_verdict.empty())
      << cheat.file << " says neither '// expect:' nor '// expect-verdict:'";
  ProcessResult r;
  const Json doc = evaluate(cheat, r);
  ASSERT_TRUE(doc.is_object()) << r.output;
  const Json& verdict = doc["verdict"];
  if (!cheat.expected_category.empty()) {
    EXPECT_TRUE(verdict["status"] == "incorrect" || verdict["status"] == "rejected")
        << verdict.dump();
    EXPECT_EQ(verdict["category"], cheat.expected_category) << verdict.dump();
    return;
  }
  // Honest timing: the work on the hidden stream is counted, so there is no win.
  EXPECT_TRUE(verdict["status"] == cheat.expected_verdict || verdict["status"] == "slower")
      << verdict.dump();
  EXPECT_LT(doc["timing"]["speedup"].get<double>(), 1.2) << doc["timing"].dump().substr(0, 400);
}

INSTANTIATE_TEST_SUITE_P(TriadCuda, GpuCheatTest, ::testing::ValuesIn(all_gpu_cheats()), name_of);

TEST(GpuCheatSuiteTest, CoversCachingSkippedWorkAndAnotherStream) {
  std::set<std::string> expected;
  for (const auto& cheat : all_gpu_cheats())
    expected.insert(cheat.expected_category + cheat.expected_verdict);
  for (const char* needed : {"cache", "unwritten", "not-faster"})
    EXPECT_TRUE(expected.count(needed)) << "no GPU cheat expects " << needed;
}

}  // namespace kopt
