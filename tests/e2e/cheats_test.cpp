// Every cheating candidate in tests/cheats/<benchmark>/ (CPU benchmarks: .cpp files) is
// evaluated by the real kopt binary against its benchmark and must be turned away with the
// reason its file announces.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../support/kopt_cli.h"
#include "util/files.h"

namespace kopt {

namespace {

struct Cheat {
  std::string benchmark;
  std::string file;
  std::string expected_category;
  bool needs_timing = false;
};

// How a failing case names its cheat (GoogleTest would print the struct's bytes).
void PrintTo(const Cheat& cheat, std::ostream* out) {
  *out << cheat.benchmark << "/" << std::filesystem::path(cheat.file).filename().string()
       << " (expect " << cheat.expected_category << ")";
}

std::vector<Cheat> all_cheats() {
  std::vector<Cheat> cheats;
  const auto root = test::source_root() / "tests" / "cheats";
  for (const auto& dir : std::filesystem::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
      if (entry.path().extension() != ".cpp") continue;
      const std::string text = read_file(entry.path()).value();
      Cheat cheat{dir.path().filename().string(), entry.path().string(),
                  test::tag_value(text, "// expect: "), false};
      cheat.needs_timing = text.find("// needs: timing") != std::string::npos;
      cheats.push_back(cheat);
    }
  }
  std::sort(cheats.begin(), cheats.end(), [](auto& a, auto& b) { return a.file < b.file; });
  return cheats;
}

std::string name_of(const ::testing::TestParamInfo<Cheat>& info) {
  return info.param.benchmark + "_" + std::filesystem::path(info.param.file).stem().string();
}

}  // namespace

class CheatTest : public ::testing::TestWithParam<Cheat> {};

TEST_P(CheatTest, IsTurnedAwayWithTheReasonThatNamesIt) {
  const Cheat& cheat = GetParam();
  ASSERT_FALSE(cheat.expected_category.empty()) << cheat.file << " has no '// expect:' line";
  std::vector<std::string> args = {"eval",   cheat.benchmark, "--variant", cheat.file,
                                   "--json", "--budget",      "2"};
  if (!cheat.needs_timing) args.push_back("--no-time");
  ProcessResult r = test::run_kopt(args);
  Json doc = test::last_json(r.output);
  ASSERT_TRUE(doc.is_object()) << r.output;
  const Json& verdict = doc["verdict"];
  EXPECT_EQ(r.exit_code, 1) << r.output.substr(0, 2000);
  EXPECT_TRUE(verdict["status"] == "incorrect" || verdict["status"] == "rejected")
      << verdict.dump();
  EXPECT_EQ(verdict["category"], cheat.expected_category) << verdict.dump();
  EXPECT_FALSE(verdict["reason"].get<std::string>().empty());
}

INSTANTIATE_TEST_SUITE_P(Cpu, CheatTest, ::testing::ValuesIn(all_cheats()), name_of);

TEST(CheatSuiteTest, HoldsAtLeastTheKnownCheats) {
  std::set<std::string> categories;
  std::map<std::string, std::set<std::string>> benchmarks_of;
  for (const auto& cheat : all_cheats()) {
    categories.insert(cheat.expected_category);
    benchmarks_of[cheat.expected_category].insert(cheat.benchmark);
  }
  // Link isolation, code outside the window and the flags contract: spread over benchmarks.
  for (const char* spread : {"interposition", "outside-window", "flags"})
    EXPECT_GE(benchmarks_of[spread].size(), 3u) << spread << " cheats cover too few benchmarks";
  for (const char* needed :
       {"cache", "unwritten", "file-access", "network", "thread", "timeout", "process", "oom",
        "precision", "interposition", "outside-window", "flags", "system"})
    EXPECT_TRUE(categories.count(needed)) << "no cheat file expects " << needed;
}

TEST(CheatSuiteTest, SleepingCandidateIsKilledInTimeAndLeavesNoProcess) {
  const auto file = test::source_root() / "tests" / "cheats" / "licm" / "sleep_forever.cpp";
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r =
      test::run_kopt({"eval", "licm", "--variant", file.string(), "--no-time", "--json"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(test::last_json(r.output)["verdict"]["category"], "timeout");
  EXPECT_LT(seconds, 60);
  usleep(200000);
  EXPECT_EQ(test::count_processes_with_prefix(std::string("./bench\0", 8)), 0);
}

}  // namespace kopt
