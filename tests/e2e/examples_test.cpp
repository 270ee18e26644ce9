// The runs committed in runs/examples/ are real records a new user can try at once: each must
// replay to the very same events (the loop, fed the recorded answers and measurements, makes the
// same decisions), and show, diff, export and report must read it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

#include "../support/browser.h"
#include "../support/kopt_cli.h"
#include "../support/schemas.h"
#include "tools/eval/evaluation.h"
#include "util/files.h"

namespace kopt {

namespace {

std::filesystem::path examples_folder() {
  return std::filesystem::path(KOPT_TEST_FIXTURES).parent_path().parent_path() / "runs" /
         "examples";
}

std::vector<std::string> example_runs() {
  std::vector<std::string> runs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(examples_folder(), ec))
    if (std::filesystem::exists(entry.path() / "run.json"))
      runs.push_back(entry.path().filename().string());
  std::sort(runs.begin(), runs.end());
  return runs;
}

class ExampleRunTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::filesystem::path run() const { return examples_folder() / GetParam(); }
};

TEST(ExampleRunsTest, AtLeastThreeAreCommitted) {
  EXPECT_GE(example_runs().size(), 3u) << "runs/examples/ holds too few runs; "
                                          "scripts/record-examples.sh records them";
}

TEST_P(ExampleRunTest, ReplaysToTheSameEvents) {
  ProcessResult replay =
      test::run_kopt({"replay", run().string(), "--json"}, std::chrono::seconds(300));
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  const Json outcome = test::last_json(replay.output);
  EXPECT_EQ(outcome.value("format", ""), "kopt-replay/1") << replay.output;
  EXPECT_EQ(outcome.value("verified", false), true) << replay.output;
  EXPECT_GT(outcome.value("events", 0), 3) << replay.output;
  EXPECT_EQ(outcome.value("divergence", "?"), "") << replay.output;
  EXPECT_TRUE(test::meets_its_schema(dump_json(outcome)));
}

// `kopt export --format jsonl`: one kopt-example/1 record per correct candidate, in order, with
// the parent's and the candidate's source and their diff.
TEST_P(ExampleRunTest, ExportsEachCorrectCandidateAsOneExampleRecord) {
  ProcessResult jsonl = test::run_kopt({"export", run().string(), "--format", "jsonl"});
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.output;
  std::vector<std::string> correct, exported;
  const Json summary = read_json_file(run() / "summary.json").value();
  for (const Json& c : summary["candidates"])
    if (verdict::is_correct(c.value("status", ""))) correct.push_back(c.value("id", ""));
  std::istringstream lines(jsonl.output);
  for (std::string line; std::getline(lines, line);) {
    const Json record = Json::parse(line);
    EXPECT_EQ(record.value("format", ""), "kopt-example/1");
    EXPECT_FALSE(record.value("source", "").empty());
    EXPECT_FALSE(record.value("parent_source", "").empty()) << "the original is in the suite";
    const std::string id = record.value("candidate", "");
    EXPECT_NE(record.value("diff", "").find("+++ b/" + id), std::string::npos) << line;
    exported.push_back(id);
  }
  EXPECT_EQ(exported, correct) << jsonl.output;
  if (!correct.empty()) {
    EXPECT_TRUE(test::meets_its_schema(jsonl.output, ".jsonl"));
  }
}

TEST_P(ExampleRunTest, IsReadByShowDiffExportAndReport) {
  ProcessResult show = test::run_kopt({"show", run().string()});
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("cpu"), std::string::npos) << "no host line:\n" << show.output;
  ProcessResult diff = test::run_kopt({"diff", run().string(), "original", "best"});
  EXPECT_EQ(diff.exit_code, 0) << diff.output;
  ProcessResult csv = test::run_kopt({"export", run().string(), "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_EQ(csv.output.rfind("run,benchmark,llm,cpu,iteration,candidate", 0), 0u) << csv.output;
  EXPECT_GE(std::count(csv.output.begin(), csv.output.end(), '\n'), 3) << csv.output;
  TempDir out("kopt-example-report-");
  ProcessResult report =
      test::run_kopt({"report", run().string(), "--html", (out.path() / "report.html").string()});
  EXPECT_EQ(report.exit_code, 0) << report.output;
  EXPECT_FALSE(std::filesystem::exists(run() / "report.html"))
      << "reading an example must not write into it";
  // As a reader opens it: the trajectory and the roofline at least, its points named apart.
  const std::string dom = test::expect_page_renders(
      out.path() / "report.html", 2, {"<th class=\"l\">cpu</th>", "baseline ms", "Roofline"});
  EXPECT_NE(dom.find("data-labels=\""), std::string::npos) << "the roofline names no point";
}

std::string example_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleRunTest, ::testing::ValuesIn(example_runs()),
                         example_name);

}  // namespace

}  // namespace kopt
