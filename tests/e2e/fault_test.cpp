// The model's server misbehaving in every way seen in the field, against the real kopt binary:
// each fault leaves the run "interrupted" (resumable, exit 3) or "failed" (exit 1) with its
// reason in run.json and a model_error event, never a finished run, never a key on disk or on
// screen; a resume finishes the run once the model is back, and the record then replays.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

#include "../llm/fake_api_server.h"
#include "../support/browser.h"
#include "../support/kopt_cli.h"
#include "../support/small_suite.h"
#include "util/files.h"

namespace kopt {

namespace {

namespace fs = std::filesystem;
using llm::testing::FakeApiServer;
using llm::testing::Received;
using llm::testing::Reply;

constexpr const char* kKey = "sk-test-fault-key-0123456789";

std::string completion(const std::string& text) {
  return dump_json(
      {{"id", "chatcmpl-fault"},
       {"object", "chat.completion"},
       {"model", "scripted"},
       {"choices",
        {{{"index", 0},
          {"message", {{"role", "assistant"}, {"content", text}}},
          {"finish_reason", "stop"}}}},
       {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 10}, {"total_tokens", 110}}}});
}

// A healthy model that never hands in a kernel: one iteration ends without an evaluation.
Reply healthy(const Received&) {
  return {200, completion("Diagnosis: the loop is fine.\nPlan:\n1. Nothing.")};
}

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<FakeApiServer>();
    server_->set_handler(healthy);
    runs_ = std::make_unique<TempDir>("kopt-fault-runs-");
    suite_ = test::small_suite({"licm"});
  }

  // Short limits so that every fault shows within seconds.
  ProcessResult kopt(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
    args.insert(args.end(), {"--out", runs_->path().string()});
    std::map<std::string, std::string> all = {{"KOPT_CACHE_DIR", test::test_cache().string()},
                                              {"OPENAI_BASE_URL", server_->url() + "/v1"},
                                              {"OPENAI_API_KEY", kKey},
                                              {"KOPT_LLM_DEADLINE_S", "4"},
                                              {"KOPT_LLM_STALL_S", "1"},
                                              {"KOPT_LLM_TIMEOUT_S", "3"},
                                              {"KOPT_SUITE", suite_->path().string()}};
    for (auto& [k, v] : env) all[k] = v;
    return test::run_kopt(args, std::chrono::seconds(300), all);
  }

  ProcessResult run(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"run",          "licm", "--llm",           "openai:scripted",
                                     "--iterations", "1",    "--timing-budget", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    return kopt(args);
  }

  fs::path only_run() const {
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(runs_->path())) dirs.push_back(entry.path());
    EXPECT_EQ(dirs.size(), 1u);
    return dirs.empty() ? fs::path() : dirs.front();
  }

  Json run_json() const { return read_json_file(only_run() / "run.json").value(); }
  std::string events_text() const { return read_file(only_run() / "events.jsonl").value(); }
  Json last_event() const {
    const std::string text = events_text();
    const size_t end = text.find_last_not_of('\n');
    const size_t start = text.rfind('\n', end);
    return Json::parse(text.substr(start == std::string::npos ? 0 : start + 1));
  }

  // Everything the run wrote, as one text.
  std::string everything_recorded() const {
    std::string all;
    for (const auto& entry : fs::recursive_directory_iterator(only_run()))
      if (entry.is_regular_file()) all += read_file(entry.path()).value_or("");
    return all;
  }

  // The run is interrupted (exit 3) with `reason` in run.json and a model_error event last.
  void expect_interrupted(const ProcessResult& r, const std::string& reason) {
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("kopt resume"), std::string::npos) << r.output;
    const Json info = run_json();
    EXPECT_EQ(info["status"], "interrupted");
    EXPECT_NE(info.value("status_reason", "").find(reason), std::string::npos)
        << info.value("status_reason", "");
    EXPECT_EQ(last_event()["type"], "model_error");
    EXPECT_EQ(events_text().find("\"type\":\"stop\""), std::string::npos);
  }

  // Once the model answers again, a resume finishes the run and the record replays.
  void expect_resume_finishes() {
    server_->set_handler(healthy);
    ProcessResult resumed = kopt({"resume", only_run().string()});
    EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_EQ(run_json()["status"], "finished");
    ProcessResult replay = kopt({"replay", only_run().string()});
    EXPECT_EQ(replay.exit_code, 0) << replay.output;
    EXPECT_NE(replay.output.find("replay verified"), std::string::npos) << replay.output;
  }

  std::unique_ptr<FakeApiServer> server_;
  std::unique_ptr<TempDir> runs_;
  std::unique_ptr<TempDir> suite_;  // licm at smaller sizes (tests/support/small_suite.h).
};

Reply error_reply(int status, const std::string& message) {
  return {status, dump_json({{"error", {{"message", message}}}})};
}

}  // namespace

TEST_F(FaultTest, ABurstOfServerErrorsInterruptsTheRunAndAResumeFinishesIt) {
  server_->set_handler([](const Received&) { return error_reply(500, "overloaded"); });
  ProcessResult r = run();
  expect_interrupted(r, "HTTP 500");
  expect_resume_finishes();
}

TEST_F(FaultTest, ALongRetryAfterInterruptsAtOnce) {
  server_->set_handler([](const Received&) {
    Reply reply = error_reply(429, "slow down");
    reply.headers = {{"Retry-After", "3600"}};
    return reply;
  });
  expect_interrupted(run(), "rate limited");
  EXPECT_EQ(server_->received().size(), 1u) << "a wait of an hour is not waited for";
}

TEST_F(FaultTest, AStallMidAnswerInterruptsTheRun) {
  server_->set_handler([](const Received&) {
    Reply reply{200, ""};
    const std::string body = completion("Diagnosis: stalled");
    reply.chunks = {body.substr(0, 20), body.substr(20)};
    reply.stall_after_first = std::chrono::milliseconds(30000);
    return reply;
  });
  expect_interrupted(run(), "");
  const std::string reason = run_json().value("status_reason", "");
  EXPECT_TRUE(reason.find("stalled") != std::string::npos ||
              reason.find("deadline") != std::string::npos)
      << reason;
}

TEST_F(FaultTest, ABodyThatNeverEndsIsCutAtTheDeadline) {
  server_->set_handler([](const Received&) {
    Reply reply{200, ""};
    reply.chunks = std::vector<std::string>(2000, " ");  // 2000 x 50 ms: far beyond 4 s.
    reply.chunks.front() = "{\"id\":";
    reply.delay_between = std::chrono::milliseconds(50);
    return reply;
  });
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = run();
  expect_interrupted(r, "deadline");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(120));
}

TEST_F(FaultTest, AHugeAnswerIsRefusedWithoutBeingKept) {
  const std::string huge = completion(std::string(50 << 20, 'x'));
  server_->set_handler([&huge](const Received&) { return Reply{200, huge}; });
  ProcessResult r = run();
  expect_interrupted(r, "grew beyond");
  EXPECT_LT(events_text().size(), 1u << 20) << "the events hold no part of the 50 MB answer";
}

TEST_F(FaultTest, AnAnswerLongerThanMaxTokensIsCutAndSaysSo) {
  server_->set_handler([](const Received&) {
    return Reply{200, completion(std::string(2 << 20, 'y'))};
  });
  ProcessResult r = run({"--max-tokens", "256"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(run_json()["status"], "finished");
  const std::string events = events_text();
  EXPECT_NE(events.find("cut by kopt"), std::string::npos);
  EXPECT_LT(events.size(), 6u << 20) << "the recorded answers are cut";
}

TEST_F(FaultTest, MalformedJsonInterruptsTheRun) {
  server_->set_handler([](const Received&) { return Reply{200, "{\"choices\": [ {\"mess"}; });
  ProcessResult r = run();
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(run_json()["status"], "interrupted");
  EXPECT_EQ(last_event()["type"], "model_error");
  expect_resume_finishes();
}

TEST_F(FaultTest, ARefusedKeyFailsTheRunAndIsEchoedNowhere) {
  server_->set_handler([](const Received&) {
    return error_reply(401, std::string("Incorrect API key provided: ") + kKey);
  });
  ProcessResult r = run();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(run_json()["status"], "failed");
  EXPECT_NE(run_json().value("status_reason", "").find("bad key"), std::string::npos);
  EXPECT_TRUE(last_event()["permanent"].get<bool>());
  EXPECT_EQ(r.output.find(kKey), std::string::npos) << r.output;
  EXPECT_EQ(everything_recorded().find(kKey), std::string::npos);
  expect_resume_finishes();  // The key was fixed.
}

TEST_F(FaultTest, AModelQuotingTheKeyIsRecordedWithoutIt) {
  server_->set_handler([](const Received&) {
    return Reply{200, completion(std::string("Your key is ") + kKey + ", and Bearer sk-other99")};
  });
  ProcessResult r = run();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string all = everything_recorded();
  EXPECT_EQ(all.find(kKey), std::string::npos);
  EXPECT_EQ(all.find("sk-other99"), std::string::npos);
  EXPECT_NE(all.find("Your key is [redacted]"), std::string::npos);
}

TEST_F(FaultTest, AnExecCommandsStderrIsRedactedEverywhere) {
  const std::string command =
      "exec:echo \"auth failed for Bearer sk-exec-secret-777 with $MY_SERVICE_TOKEN\" >&2; exit 4";
  ProcessResult r =
      kopt({"run", "licm", "--llm", command, "--iterations", "1", "--timing-budget", "0"},
           {{"MY_SERVICE_TOKEN", "tok-plain-secret-4242"}});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(run_json()["status"], "interrupted");
  const std::string all = everything_recorded() + r.output;
  EXPECT_NE(all.find("auth failed for Bearer [redacted]"), std::string::npos) << r.output;
  EXPECT_EQ(all.find("sk-exec-secret-777"), std::string::npos);
  EXPECT_EQ(all.find("tok-plain-secret-4242"), std::string::npos);
}

TEST_F(FaultTest, ACampaignGoesOnAfterARunWhoseModelFailedAndResumesItWhenRunAgain) {
  TempDir suite("kopt-fault-suite-");
  for (const char* name : {"licm", "scan"}) test::copy_small_benchmark(name, suite.path() / name);
  std::atomic<int> calls{0};
  server_->set_handler([&calls](const Received& r) {  // The first call is refused for good.
    return ++calls == 1 ? error_reply(401, "invalid api key") : healthy(r);
  });
  const fs::path campaign = runs_->path() / "experiment";
  const std::vector<std::string> args = {
      "campaign", suite.path().string(), "--llm", "openai:scripted", "--iterations",
      "1",        "--timing-budget",     "0",     "--into",          campaign.string()};
  ProcessResult r = kopt(args);
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("kopt campaign again resumes it"), std::string::npos) << r.output;
  size_t finished = 0, runs = 0;
  for (const auto& entry : fs::directory_iterator(campaign)) {
    if (!fs::exists(entry.path() / "run.json")) continue;
    ++runs;
    finished += read_json_file(entry.path() / "run.json").value()["status"] == "finished";
  }
  EXPECT_EQ(runs, 2u) << "the campaign stopped at the failed run";
  EXPECT_EQ(finished, 1u) << r.output;
  auto index = read_file(campaign / "index.jsonl");
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(std::count(index->begin(), index->end(), '\n'), 2) << *index;
  EXPECT_NE(index->find("\"status\":\"interrupted\""), std::string::npos) << *index;

  // Run again into the same folder: the finished run is skipped, the failed one resumed.
  ProcessResult again = kopt(args);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("finished before"), std::string::npos) << again.output;
  size_t runs_after = 0;
  for (const auto& entry : fs::directory_iterator(campaign))
    runs_after += fs::exists(entry.path() / "run.json");
  EXPECT_EQ(runs_after, 2u) << "a resumed run is the same folder, not a new run";
  ProcessResult compare = test::run_kopt({"compare", campaign.string(), "--json"});
  ASSERT_EQ(compare.exit_code, 0) << compare.output;
  const Json table = Json::parse(compare.output.substr(compare.output.find('{')));
  ASSERT_EQ(table["rows"].size(), 2u) << compare.output;
  for (const Json& row : table["rows"]) {
    EXPECT_EQ(row["finished"], 1) << row.dump();
    EXPECT_EQ(row["strategy"], "marco") << row.dump();
  }
  ASSERT_EQ(table["models"].size(), 1u) << compare.output;
  EXPECT_EQ(table["models"][0]["benchmarks"], 2) << compare.output;
}

TEST_F(FaultTest, ACampaignRunsEveryStrategyAndSeedGiven) {
  TempDir suite("kopt-fault-suite-");
  test::copy_small_benchmark("licm", suite.path() / "licm");
  const fs::path campaign = runs_->path() / "matrix";
  ProcessResult r =
      kopt({"campaign", suite.path().string(), "--llm", "openai:scripted", "--strategy", "direct",
            "--strategy", "guided", "--seed", "3", "--seed", "4", "--iterations", "1",
            "--timing-budget", "0", "--into", campaign.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // --json prints what kopt compare --json prints: a row per benchmark x model x strategy.
  const Json comparison = test::last_json(r.output);
  ASSERT_EQ(comparison["rows"].size(), 2u) << r.output;
  EXPECT_EQ(comparison["rows"][0]["strategy"], "direct");
  EXPECT_EQ(comparison["rows"][1]["strategy"], "guided");
  EXPECT_EQ(comparison["rows"][0]["runs"], 2);
  auto index = read_file(campaign / "index.jsonl");
  ASSERT_TRUE(index.ok());
  std::set<std::pair<std::string, uint64_t>> cells;
  std::istringstream lines(*index);
  for (std::string line; std::getline(lines, line);) {
    const Json entry = Json::parse(line);
    cells.insert({entry["strategy"].get<std::string>(), entry["seed"].get<uint64_t>()});
    const Json run =
        read_json_file(campaign / entry["run"].get<std::string>() / "run.json").value();
    EXPECT_EQ(run["config"]["strategy"], entry["strategy"]) << line;
    EXPECT_EQ(run["config"]["seed"], entry["seed"]) << line;
  }
  const std::set<std::pair<std::string, uint64_t>> want = {
      {"direct", 3}, {"direct", 4}, {"guided", 3}, {"guided", 4}};
  EXPECT_EQ(cells, want) << *index;
  // Without an analyst the model is asked once per candidate, with no tools.
  for (const auto& entry : fs::recursive_directory_iterator(campaign)) {
    if (entry.path().filename() != "events.jsonl") continue;
    const std::string events = read_file(entry.path()).value();
    EXPECT_EQ(events.find("\"role\":\"analyst\""), std::string::npos) << entry.path();
  }
  // The campaign's page: every run linked to its own page, the comparison drawn.
  ProcessResult report = kopt({"report", campaign.string()});
  ASSERT_EQ(report.exit_code, 0) << report.output;
  std::vector<std::string> texts = {"kopt campaign matrix",
                                    "Per model and strategy",
                                    "4 finished",
                                    "<th class=\"l\">cpu</th>",
                                    "<th class=\"l\">flags</th>",
                                    "-march=native",
                                    "<th class=\"l\">model</th>",
                                    "openai:scripted",
                                    "1-minute load average from"};
  std::istringstream again(*index);
  for (std::string line; std::getline(again, line);) {
    const std::string run = Json::parse(line)["run"].get<std::string>();
    EXPECT_TRUE(fs::exists(campaign / run / "report.html")) << run;
    texts.push_back("href=\"./" + run + "/report.html\"");
  }
  test::expect_page_renders(campaign / "report.html", 1, texts);
  // Every record of the campaign, just written, meets its schema (docs/schemas).
  ProcessSpec validate;
  validate.argv = {"/usr/bin/python3",
                   (test::source_root() / "scripts/validate-records.py").string(),
                   campaign.string()};
  validate.env = {{"PATH", "/usr/bin:/bin"}};
  ProcessResult valid = LocalProcessRunner().run(validate);
  EXPECT_TRUE(valid.succeeded()) << valid.output;
  EXPECT_NE(valid.output.find("valid"), std::string::npos) << valid.output;
  ProcessResult bad = kopt({"campaign", suite.path().string(), "--strategy", "clever"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--strategy must be"), std::string::npos) << bad.output;
}

TEST_F(FaultTest, ACampaignWithJobsRunsItsCellsInChildProcessesIntoOneIndex) {
  TempDir suite("kopt-fault-suite-");
  test::copy_small_benchmark("licm", suite.path() / "licm");
  const fs::path campaign = runs_->path() / "parallel";
  ProcessResult r =
      kopt({"campaign", suite.path().string(), "--llm", "openai:scripted", "--strategy", "direct",
            "--seed", "1", "--seed", "2", "--jobs", "2", "--iterations", "1", "--timing-budget",
            "0", "--into", campaign.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto index = read_file(campaign / "index.jsonl");
  ASSERT_TRUE(index.ok());
  std::set<uint64_t> seeds;
  size_t logs = 0;
  std::istringstream lines(*index);
  for (std::string line; std::getline(lines, line);) {
    const Json entry = Json::parse(line);
    EXPECT_EQ(entry["status"], "finished") << line;
    seeds.insert(entry["seed"].get<uint64_t>());
  }
  for (const auto& entry : fs::directory_iterator(campaign))
    logs += entry.path().extension() == ".log";
  EXPECT_EQ(seeds, (std::set<uint64_t>{1, 2})) << *index;
  EXPECT_EQ(logs, 2u) << "each child writes its own log";
  EXPECT_NE(r.output.find("ended (exit 0"), std::string::npos) << r.output;
}

TEST_F(FaultTest, TwoResumesOfOneRunNeverWriteAtOnce) {
  server_->set_handler([](const Received&) { return error_reply(500, "down"); });
  expect_interrupted(run(), "HTTP 500");
  // The model is back but slow: the first resume holds the run while it waits.
  server_->set_handler([](const Received& r) {
    Reply reply = healthy(r);
    reply.delay_before = std::chrono::milliseconds(1500);
    return reply;
  });
  ProcessResult first, second;
  std::thread a([&] { first = kopt({"resume", only_run().string()}); });
  std::thread b([&] { second = kopt({"resume", only_run().string()}); });
  a.join();
  b.join();
  const bool first_won = first.exit_code == 0;
  const ProcessResult& loser = first_won ? second : first;
  EXPECT_EQ((first_won ? first : second).exit_code, 0);
  EXPECT_NE(loser.exit_code, 0) << loser.output;
  EXPECT_NE(loser.output.find("is being written by another kopt (held by pid "), std::string::npos)
      << loser.output;
  const std::string events = events_text();
  size_t stops = 0;
  for (size_t at = events.find("\"type\":\"stop\""); at != std::string::npos;
       at = events.find("\"type\":\"stop\"", at + 1))
    ++stops;
  EXPECT_EQ(stops, 1u);
  ProcessResult replay = kopt({"replay", only_run().string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
}

}  // namespace kopt
