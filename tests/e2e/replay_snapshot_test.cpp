// A run keeps a copy of its benchmark (RUN/benchmark/NAME/), so that a fix to the suite's copy
// leaves the runs recorded before it replayable: the real kopt, given a kopt home whose licm has
// changed since the scripted example run was recorded, replays and resumes that run with the
// run's copy and says so; a copy edited after the run is refused, and a record without a copy
// keeps the old error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "agent/record/benchmark_snapshot.h"
#include "util/files.h"

namespace kopt {

namespace {

namespace fs = std::filesystem;

constexpr const char* kExample = "20261125-041557-licm-3a6ee1-scripted";

class ReplaySnapshotTest : public ::testing::Test {
 protected:
  // A kopt home with what a replay reads (prompts, prices, the licm benchmark) and a copy of the
  // example run.
  void SetUp() override {
    const fs::path root = test::source_root();
    for (const char* part : {"prompts", "agent/llm/prices.json", "benchmarks/common"}) {
      fs::create_directories((home_.path() / part).parent_path());
      fs::copy(root / part, home_.path() / part, fs::copy_options::recursive);
    }
    run_ = runs_.path() / kExample;
    fs::copy(root / "runs" / "examples" / kExample, run_, fs::copy_options::recursive);
    // The home's licm is the one the run was recorded with (the repository's own may have
    // changed since): the tests change it themselves.
    fs::create_directories(home_.path() / "benchmarks" / "cpu");
    fs::copy(run_ / "benchmark" / "licm", home_.path() / "benchmarks" / "cpu" / "licm",
             fs::copy_options::recursive);
  }

  ProcessResult kopt(const std::vector<std::string>& args) {
    return test::run_kopt(
        args, std::chrono::seconds(300),
        {{"KOPT_HOME", home_.path().string()}, {"KOPT_RUNS", runs_.path().string()}});
  }

  // The suite's licm changes after the run: a fix to its driver.
  void change_the_suites_benchmark() {
    const fs::path driver = home_.path() / "benchmarks" / "cpu" / "licm" / "driver.cpp";
    ASSERT_TRUE(write_file(driver, read_file(driver).value() + "// A fix made after the run.\n"));
  }

  TempDir home_{"kopt-snapshot-home-"};
  TempDir runs_{"kopt-snapshot-runs-"};
  fs::path run_;
};

TEST_F(ReplaySnapshotTest, ReplayAfterTheSuitesBenchmarkChangedUsesTheRunsCopy) {
  ProcessResult unchanged = kopt({"replay", run_.string(), "--json"});
  EXPECT_EQ(unchanged.exit_code, 0) << unchanged.output;
  EXPECT_EQ(unchanged.output.find("recorded copy"), std::string::npos) << unchanged.output;

  change_the_suites_benchmark();
  ProcessResult replay = kopt({"replay", run_.string(), "--json"});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  const Json outcome = test::last_json(replay.output);
  EXPECT_EQ(outcome.value("verified", false), true) << replay.output;
  EXPECT_EQ(outcome.value("divergence", "?"), "") << replay.output;
  EXPECT_NE(replay.output.find("kopt replay: the suite's copy of benchmark licm changed since this "
                               "run was recorded; the replay uses the run's recorded copy"),
            std::string::npos)
      << replay.output;
}

TEST_F(ReplaySnapshotTest, ACopyChangedAfterTheRunIsRefused) {
  change_the_suites_benchmark();
  const fs::path original = benchmark_snapshot_dir(run_, "licm") / "original.cpp";
  ASSERT_TRUE(write_file(original, read_file(original).value() + "// Edited.\n"));
  ProcessResult replay = kopt({"replay", run_.string()});
  EXPECT_EQ(replay.exit_code, 1) << replay.output;
  EXPECT_NE(replay.output.find("kopt replay: cannot replay " + std::string(kExample) +
                               ": the run's copy of benchmark licm"),
            std::string::npos)
      << replay.output;
  EXPECT_NE(replay.output.find("its files were changed after the run was recorded"),
            std::string::npos)
      << replay.output;
}

TEST_F(ReplaySnapshotTest, ARecordWithoutACopyKeepsTheOldError) {
  fs::remove_all(run_ / "benchmark");
  change_the_suites_benchmark();
  ProcessResult replay = kopt({"replay", run_.string()});
  EXPECT_EQ(replay.exit_code, 1) << replay.output;
  EXPECT_NE(replay.output.find("the files of benchmark licm changed since this run was recorded"),
            std::string::npos)
      << replay.output;
}

// An interrupted run goes on with its own copy, so that every candidate is judged by the same
// benchmark. Here nothing is left to do: every event is recorded, and no model is called.
TEST_F(ReplaySnapshotTest, ResumeAfterTheSuitesBenchmarkChangedGoesOnWithTheRunsCopy) {
  Json info = read_json_file(run_ / "run.json").value();
  info["status"] = "interrupted";
  ASSERT_TRUE(write_json_file(run_ / "run.json", info));
  change_the_suites_benchmark();
  ProcessResult resume = kopt({"resume", run_.string()});
  EXPECT_EQ(resume.exit_code, 0) << resume.output;
  EXPECT_NE(resume.output.find("kopt resume: the suite's copy of benchmark licm changed since this "
                               "run was recorded; the run goes on with its recorded copy"),
            std::string::npos)
      << resume.output;
  EXPECT_EQ(read_json_file(run_ / "run.json").value().value("status", ""), "finished");
}

// A record made before copies were kept gets one when it is resumed while the suite's copy is
// still the run's.
TEST_F(ReplaySnapshotTest, ResumingAnOlderRecordKeepsACopyOfItsBenchmark) {
  fs::remove_all(run_ / "benchmark");
  Json info = read_json_file(run_ / "run.json").value();
  info["status"] = "interrupted";
  ASSERT_TRUE(write_json_file(run_ / "run.json", info));
  ProcessResult resume = kopt({"resume", run_.string()});
  EXPECT_EQ(resume.exit_code, 0) << resume.output;
  EXPECT_TRUE(load_benchmark_snapshot(run_, "licm", info["benchmark"].value("hash", "")).ok());
}

}  // namespace

}  // namespace kopt
