// The whole loop for real: kopt talks to a loopback server that speaks the OpenAI chat
// completions protocol and proposes a genuinely faster kernel for licm and a wrong one for
// count_smaller. The runs must keep the first, reject the second with its reason, replay
// exactly, survive kill -9, and render as a report in headless Chromium.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../llm/fake_api_server.h"
#include "../support/kopt_cli.h"
#include "util/files.h"

namespace kopt {

namespace {

using llm::testing::FakeApiServer;
using llm::testing::Received;
using llm::testing::Reply;

std::string fixture(const std::string& name) {
  return read_file(std::filesystem::path(KOPT_TEST_FIXTURES) / "loop" / name).value();
}

Json completion(Json message, const std::string& finish) {
  return {{"id", "chatcmpl-test"}, {"object", "chat.completion"}, {"model", "scripted"},
          {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
          {"usage", {{"prompt_tokens", 1200}, {"completion_tokens", 300}, {"total_tokens", 1500}}}};
}

// The scripted model: the analyst always diagnoses, the optimizer submits the fixture for the
// benchmark named in its prompt.
Reply scripted_model(const Received& request) {
  Json body = Json::parse(request.body);
  const std::string system = body["messages"][0].value("content", "");
  const std::string user = body["messages"][1].value("content", "");
  if (system.find("performance analyst") != std::string::npos)
    return {200, dump_json(completion({{"role", "assistant"}, {"content", "Diagnosis: the hot line recomputes invariant work.\nPlan:\n1. Hoist it."}}, "stop"))};
  const std::string source = fixture(user.find("# Benchmark licm") != std::string::npos ? "licm_hoisted.cpp" : "count_smaller_off_by_one.cpp");
  Json call = {{"id", "call_1"}, {"type", "function"},
               {"function", {{"name", "submit"}, {"arguments", dump_json({{"source", source}, {"summary", "scripted change"}})}}}};
  return {200, dump_json(completion({{"role", "assistant"}, {"content", nullptr}, {"tool_calls", {call}}}, "tool_calls"))};
}

class LoopTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new FakeApiServer();
    server_->set_handler(scripted_model);
    runs_ = new TempDir("kopt-loop-runs-");
  }
  static void TearDownTestSuite() {
    delete server_;
    delete runs_;
  }

  static ProcessResult kopt(std::vector<std::string> args, std::chrono::seconds timeout = std::chrono::seconds(400)) {
    args.insert(args.end(), {"--out", runs_->path().string()});
    return test::run_kopt(args, timeout, {{"OPENAI_BASE_URL", server_->url() + "/v1"}, {"OPENAI_API_KEY", "sk-test-not-a-real-key"}});
  }

  // The folder of the newest run of a benchmark.
  static std::filesystem::path newest_run(const std::string& bench) {
    std::filesystem::path newest;
    for (const auto& entry : std::filesystem::directory_iterator(runs_->path()))
      if (entry.path().filename().string().find("-" + bench + "-") != std::string::npos &&
          (newest.empty() || entry.path() > newest))
        newest = entry.path();
    return newest;
  }

  static Json summary_of(const std::filesystem::path& run) { return read_json_file(run / "summary.json").value(); }

  static FakeApiServer* server_;
  static TempDir* runs_;
};

FakeApiServer* LoopTest::server_ = nullptr;
TempDir* LoopTest::runs_ = nullptr;

const std::vector<std::string> kQuick = {"--llm", "openai:scripted", "--iterations", "1", "--timing-budget", "1"};

std::vector<std::string> run_args(const std::string& bench) {
  std::vector<std::string> args = {"run", bench};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  return args;
}

}  // namespace

TEST_F(LoopTest, KeepsTheFasterKernelAndReplaysIt) {
  ProcessResult run = kopt(run_args("licm"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto dir = newest_run("licm");
  Json summary = summary_of(dir);
  EXPECT_EQ(summary["best"]["id"], "0001") << summary.dump(2);
  EXPECT_EQ(summary["candidates"][0]["status"], "faster");
  EXPECT_GT(summary["best"]["ci_low"].get<double>(), 1.0);
  EXPECT_TRUE(std::filesystem::exists(dir / "candidates" / "0001" / "diff.patch"));
  EXPECT_TRUE(std::filesystem::exists(dir / "candidates" / "0001" / "evaluation.json"));
  const std::string run_json = read_file(dir / "run.json").value() + read_file(dir / "events.jsonl").value();
  EXPECT_EQ(run_json.find("sk-test-not-a-real-key"), std::string::npos) << "the API key leaked into the record";

  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("replay verified"), std::string::npos) << replay.output;
}

TEST_F(LoopTest, RejectsTheWrongKernelWithItsReason) {
  ProcessResult run = kopt(run_args("count_smaller"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto dir = newest_run("count_smaller");
  Json summary = summary_of(dir);
  EXPECT_EQ(summary["best"]["id"], "original");
  const Json& candidate = summary["candidates"][0];
  EXPECT_EQ(candidate["status"], "incorrect");
  EXPECT_EQ(candidate["category"], "wrong");
  EXPECT_NE(candidate["reason"].get<std::string>().find("output 'counts' differs"), std::string::npos) << candidate.dump();
  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
}

TEST_F(LoopTest, ReplayNamesTheFirstDivergence) {
  const auto original = newest_run("licm");
  ASSERT_FALSE(original.empty()) << "needs the licm run of KeepsTheFasterKernelAndReplaysIt";
  const auto copy = runs_->path() / "tampered";
  std::filesystem::copy(original, copy, std::filesystem::copy_options::recursive);
  std::string events = read_file(copy / "events.jsonl").value();
  const size_t at = events.find("\"accepted\":true");
  ASSERT_NE(at, std::string::npos);
  events.replace(at, 15, "\"accepted\":fals");
  events.insert(at + 15, "e");
  ASSERT_TRUE(write_file(copy / "events.jsonl", events));
  ProcessResult replay = kopt({"replay", copy.string()});
  EXPECT_EQ(replay.exit_code, 1);
  EXPECT_NE(replay.output.find("DIVERGED"), std::string::npos) << replay.output;
  EXPECT_NE(replay.output.find("(decision): accepted"), std::string::npos) << replay.output;
}

TEST_F(LoopTest, KilledRunResumesLosingNothing) {
  std::vector<std::string> args = run_args("licm");
  args[args.size() - 3] = "2";  // --iterations 2
  ProcessResult killed = kopt(args, std::chrono::seconds(12));  // SIGKILL to the whole group.
  ASSERT_TRUE(killed.timed_out) << "the run finished before it could be killed: " << killed.output;
  const auto dir = newest_run("licm");
  bool torn = false;
  const size_t before = read_file(dir / "events.jsonl").value().size();
  ProcessResult resumed = kopt({"resume", dir.string()});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_GT(read_file(dir / "events.jsonl").value().size(), before);
  EXPECT_EQ(read_json_file(dir / "run.json").value()["status"], "finished");
  (void)torn;
  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
}

TEST_F(LoopTest, ReportRendersInHeadlessChromium) {
  const auto dir = newest_run("licm");
  ASSERT_FALSE(dir.empty());
  ProcessResult report = kopt({"report", dir.string(), "--peak-gflops", "50", "--peak-gbs", "20"});
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string html = read_file(dir / "report.html").value();
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "the report must be self-contained and static";
  const char* chromium = "/usr/bin/chromium";
  if (access(chromium, X_OK) != 0) GTEST_SKIP() << "Debian's chromium is not installed (scripts/setup.sh installs it)";
  ProcessSpec shot;
  shot.argv = {chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1600",
               "--screenshot=" + (dir / "report.png").string(), "file://" + (dir / "report.html").string()};
  shot.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", runs_->path().string()}};
  shot.timeout = std::chrono::seconds(120);
  ProcessResult r = LocalProcessRunner().run(shot);
  ASSERT_TRUE(std::filesystem::exists(dir / "report.png")) << r.output;
  EXPECT_GT(std::filesystem::file_size(dir / "report.png"), 50000u) << "the screenshot looks blank";
}

}  // namespace kopt
