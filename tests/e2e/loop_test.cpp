// The whole loop for real: kopt talks to a loopback server that speaks the OpenAI chat
// completions protocol and proposes a genuinely faster kernel for licm and a wrong one for
// count_smaller. The runs must keep the first, reject the second with its reason, replay
// exactly, survive kill -9, and render as a report in headless Chromium.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <functional>

#include "../llm/fake_api_server.h"
#include "../llm/wire_formats.h"
#include "../support/browser.h"
#include "../support/kopt_cli.h"
#include "../support/small_suite.h"
#include "agent/record/run_record.h"
#include "tools/machine/host.h"
#include "util/files.h"

namespace kopt {

namespace {

using llm::testing::FakeApiServer;
using llm::testing::Received;
using llm::testing::Reply;

std::string loop_fixture(const std::string& name) {
  return read_file(std::filesystem::path(KOPT_TEST_FIXTURES) / "loop" / name).value();
}

Json completion(Json message, const std::string& finish) {
  return {{"id", "chatcmpl-test"},
          {"object", "chat.completion"},
          {"model", "scripted"},
          {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
          {"usage", {{"prompt_tokens", 1200}, {"completion_tokens", 300}, {"total_tokens", 1500}}}};
}

// The scripted model: the analyst always diagnoses, the optimizer submits the fixture for the
// benchmark named in its prompt.
Reply scripted_loop_model(const Received& request) {
  Json body = Json::parse(request.body);
  const std::string system = body["messages"][0].value("content", "");
  const std::string user = body["messages"][1].value("content", "");
  if (system.find("performance analyst") != std::string::npos)
    return {200, dump_json(completion(
                     {{"role", "assistant"},
                      {"content",
                       "Diagnosis: the hot line recomputes invariant work.\nPlan:\n1. Hoist it."}},
                     "stop"))};
  const std::string source = loop_fixture(
      user.find("# Benchmark licm") != std::string::npos       ? "licm_hoisted.cpp"
      : user.find("# Benchmark seidel1d") != std::string::npos ? "seidel1d_carried.cpp"
                                                               : "count_smaller_off_by_one.cpp");
  Json call = {{"id", "call_1"},
               {"type", "function"},
               {"function",
                {{"name", "submit"},
                 {"arguments", dump_json({{"source", source}, {"summary", "scripted change"}})}}}};
  return {200, dump_json(
                   completion({{"role", "assistant"}, {"content", nullptr}, {"tool_calls", {call}}},
                              "tool_calls"))};
}

// Each test has its own model server and folder of runs: ctest runs every test in a process of
// its own, so nothing may be shared between tests.
class LoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<FakeApiServer>();
    server_->set_handler(scripted_loop_model);
    runs_ = std::make_unique<TempDir>("kopt-loop-runs-");
    suite_ = test::small_suite({"licm", "count_smaller"});
  }

  ProcessResult kopt(std::vector<std::string> args,
                     std::chrono::seconds timeout = std::chrono::seconds(400)) {
    args.insert(args.end(), {"--out", runs_->path().string()});
    return test::run_kopt(args, timeout,
                          {{"OPENAI_BASE_URL", server_->url() + "/v1"},
                           {"OPENAI_API_KEY", "sk-test-not-a-real-key"},
                           {"KOPT_SUITE", suite_->path().string()}});
  }

  // The folder of the newest run of a benchmark.
  std::filesystem::path newest_run(const std::string& bench) {
    std::filesystem::path newest;
    for (const auto& entry : std::filesystem::directory_iterator(runs_->path()))
      if (entry.path().filename().string().find("-" + bench + "-") != std::string::npos &&
          (newest.empty() || entry.path() > newest))
        newest = entry.path();
    return newest;
  }

  static Json summary_of(const std::filesystem::path& run) {
    return read_json_file(run / "summary.json").value();
  }

  std::pair<pid_t, std::filesystem::path> start_and_wait_for_a_candidate(
      const std::filesystem::path& stderr_file);

  std::unique_ptr<FakeApiServer> server_;
  std::unique_ptr<TempDir> runs_;
  // licm and count_smaller at smaller sizes (tests/support/small_suite.h).
  std::unique_ptr<TempDir> suite_;
};

const std::vector<std::string> kQuick = {"--llm", "openai:scripted", "--iterations",
                                         "1",     "--timing-budget", "1"};

std::vector<std::string> run_args(const std::string& bench) {
  std::vector<std::string> args = {"run", bench};
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  return args;
}

// Copies a run, flips its first accepted decision, and expects the replay to name it.
void expect_tampering_is_caught(
    const std::filesystem::path& original, const std::filesystem::path& copy,
    const std::function<ProcessResult(std::vector<std::string>)>& kopt) {
  std::filesystem::copy(original, copy, std::filesystem::copy_options::recursive);
  std::string events = read_file(copy / "events.jsonl").value();
  const size_t at = events.find("\"accepted\":true");
  ASSERT_NE(at, std::string::npos);
  events.replace(at, 15, "\"accepted\":false");
  ASSERT_TRUE(write_file(copy / "events.jsonl", events));
  ProcessResult replay = kopt({"replay", copy.string()});
  EXPECT_EQ(replay.exit_code, 1);
  EXPECT_NE(replay.output.find("DIVERGED"), std::string::npos) << replay.output;
  EXPECT_NE(replay.output.find("(decision): accepted"), std::string::npos) << replay.output;
}

// Writes the run's report and renders it in headless Chromium (tests/support/browser.h).
void expect_report_renders(const std::filesystem::path& dir,
                           const std::function<ProcessResult(std::vector<std::string>)>& kopt,
                           int charts, const std::vector<std::string>& texts) {
  ProcessResult report = kopt({"report", dir.string()});
  ASSERT_EQ(report.exit_code, 0) << report.output;
  test::expect_page_renders(dir / "report.html", charts, texts);
}

}  // namespace

TEST_F(LoopTest, KeepsTheFasterKernelReplaysItCatchesTamperingAndReports) {
  ProcessResult run = kopt(run_args("licm"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto dir = newest_run("licm");
  Json summary = summary_of(dir);
  EXPECT_EQ(summary["best"]["id"], "0001") << summary.dump(2);
  EXPECT_EQ(summary["candidates"][0]["status"], "faster");
  EXPECT_GT(summary["best"]["ci_low"].get<double>(), 1.0);
  EXPECT_TRUE(std::filesystem::exists(dir / "candidates" / "0001" / "diff.patch"));
  EXPECT_TRUE(std::filesystem::exists(dir / "candidates" / "0001" / "evaluation.json"));
  const std::string run_json =
      read_file(dir / "run.json").value() + read_file(dir / "events.jsonl").value();
  EXPECT_EQ(run_json.find("sk-test-not-a-real-key"), std::string::npos)
      << "the API key leaked into the record";
  // Both roles are told the host (ISA, cores, caches), from the record so replays ask the same.
  const std::string host = "Host: " + read_host_info().cpu_model;
  const std::string events = read_file(dir / "events.jsonl").value();
  const size_t first = events.find(host);
  EXPECT_NE(first, std::string::npos) << "no host line in the prompts";
  EXPECT_NE(events.find(host, first + 1), std::string::npos) << "one role lacks the host line";
  // The first analysis sees the original's own compiler remarks.
  const std::string remarks = "## Compiler remarks (vectorization)\\n";
  const size_t at = events.find(remarks);
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(events.substr(at + remarks.size(), 6), "(none)")
      << "the original's remarks are missing";
  // Those about the profile's hottest line come first (licm's inner loop has remarks).
  EXPECT_EQ(events.substr(at + remarks.size(), 5), "Line ")
      << events.substr(at + remarks.size(), 600);

  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("replay verified"), std::string::npos) << replay.output;

  auto run_kopt = [this](std::vector<std::string> args) { return kopt(std::move(args)); };
  expect_tampering_is_caught(dir, runs_->path() / "tampered", run_kopt);
  expect_report_renders(dir, run_kopt, 3,
                        {"as the run's roofline tool used them", "Evaluations", "promoted",
                         "Profile of original", "Roofline of original", "<th class=\"l\">cpu</th>",
                         "head to head against human", "Where the time goes",
                         "0001 was never profiled", "id=\"best-source\"", "data-highlighted=\""});
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
  EXPECT_NE(candidate["reason"].get<std::string>().find("output 'counts' differs"),
            std::string::npos)
      << candidate.dump();
  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  // An integer-only benchmark (0 flops) still gets its roofline: bandwidth-only, saying so.
  auto run_kopt = [this](std::vector<std::string> args) { return kopt(std::move(args)); };
  expect_report_renders(dir, run_kopt, 1, {"bandwidth-only", "integer peak"});
}

// seidel1d (tests/fixtures/benchmarks) updates its array in place and has no human version:
// the run checks the original against itself instead, and every reader says there is none.
TEST_F(LoopTest, ARunWithoutAHumanVersionSaysSoEverywhere) {
  std::vector<std::string> args = run_args("seidel1d");
  args.insert(args.end(),
              {"--suite", (std::filesystem::path(KOPT_TEST_FIXTURES) / "benchmarks").string()});
  ProcessResult run = kopt(args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto dir = newest_run("seidel1d");
  Json summary = summary_of(dir);
  EXPECT_TRUE(summary["human"].is_null()) << summary.dump(2);
  EXPECT_TRUE(summary["fraction_of_human_speedup"].is_null());
  EXPECT_GT(summary["original"]["ms"].get<double>(), 0);
  EXPECT_EQ(summary["candidates"][0]["status"] != "incorrect", true) << summary.dump(2);
  const std::string events = read_file(dir / "events.jsonl").value();
  EXPECT_NE(events.find(R"("candidate":"original")"), std::string::npos)
      << "the original is evaluated against itself";

  ProcessResult show = kopt({"show", dir.string()});
  EXPECT_NE(show.output.find("human    none"), std::string::npos) << show.output;
  const Json shown = Json::parse(kopt({"show", dir.string(), "--json"}).output);
  EXPECT_TRUE(shown["human"].is_null()) << shown.dump(2);
  EXPECT_GT(shown["original_ms"].get<double>(), 0);
  ASSERT_EQ(shown["candidates"].size(), 1u);
  EXPECT_EQ(shown["candidates"][0]["id"], "0001");
  EXPECT_EQ(shown["candidates"][0]["status"], summary["candidates"][0]["status"]);
  ProcessResult runs = kopt({"runs", "--json"});
  ASSERT_EQ(runs.exit_code, 0) << runs.output;
  const Json listed = Json::parse(runs.output);
  ASSERT_EQ(listed.size(), 1u) << runs.output;
  EXPECT_EQ(listed[0]["status"], "finished");
  EXPECT_TRUE(listed[0]["human"].is_null());
  EXPECT_EQ(listed[0]["run"], dir.filename().string());
  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  ProcessResult report = kopt({"report", dir.string()});
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(read_file(dir / "report.html").value().find("no human version"), std::string::npos);
}

// Starts `kopt ARGS` in a process group of its own, its stderr in `stderr_file`, and waits until
// the run's first candidate is on disk (its evaluation is not yet). Returns the pid and the run.
std::pair<pid_t, std::filesystem::path> LoopTest::start_and_wait_for_a_candidate(
    const std::filesystem::path& stderr_file) {
  std::vector<std::string> args = {KOPT_BINARY,
                                   "run",
                                   "licm",
                                   "--llm",
                                   "openai:scripted",
                                   "--iterations",
                                   "2",
                                   "--timing-budget",
                                   "1",
                                   "--out",
                                   runs_->path().string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = {"PATH=/usr/bin:/bin",
                                  "HOME=/tmp",
                                  "KOPT_CACHE_DIR=" + test::test_cache().string(),
                                  "OPENAI_BASE_URL=" + server_->url() + "/v1",
                                  "OPENAI_API_KEY=sk-test",
                                  "KOPT_SUITE=" + suite_->path().string()};
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, KOPT_BINARY, &files, &attributes, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
  std::filesystem::path dir;
  for (int waited = 0; waited < 3000; ++waited) {
    dir = newest_run("licm");
    if (!dir.empty() &&
        read_file(dir / "events.jsonl").value_or("").find("\"type\":\"candidate\"") !=
            std::string::npos)
      break;
    usleep(20000);
  }
  return {pid, dir};
}

TEST_F(LoopTest, KilledRunResumesLosingNothing) {
  // SIGKILL the run's whole process group while the first candidate is being evaluated.
  auto [pid, dir] = start_and_wait_for_a_candidate(runs_->path() / "stderr.txt");
  ::kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run ended before it could be killed";
  ASSERT_FALSE(dir.empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "candidates" / "0001" / "evaluation.json"))
      << "the run was killed after the candidate's evaluation, not during it";
  EXPECT_EQ(read_json_file(dir / "run.json").value()["status"], "running");
  const size_t before = read_file(dir / "events.jsonl").value().size();
  ProcessResult show = kopt({"show", dir.string()});
  EXPECT_NE(show.output.find("status   stopped before it finished"), std::string::npos)
      << show.output;
  EXPECT_NE(show.output.find("kopt resume " + dir.filename().string()), std::string::npos);
  ProcessResult runs = kopt({"runs"});
  EXPECT_NE(runs.output.find("stopped"), std::string::npos) << runs.output;
  auto run_kopt = [this](std::vector<std::string> args) { return kopt(std::move(args)); };
  expect_report_renders(dir, run_kopt, 0, {"stopped before it finished", "kopt resume"});
  std::filesystem::remove(dir / "report.html");
  std::filesystem::remove(dir / "report.png");

  ProcessResult resumed = kopt({"resume", dir.string()});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_GT(read_file(dir / "events.jsonl").value().size(), before);
  EXPECT_EQ(read_json_file(dir / "run.json").value()["status"], "finished");
  EXPECT_TRUE(std::filesystem::exists(dir / "candidates" / "0001" / "evaluation.json"));
  ProcessResult replay = kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
}

// --verbose streams the model's answers and shows them as they come, each under its role; the
// run records the same analysis a run without it would.
TEST_F(LoopTest, VerboseShowsTheModelsAnswersAsTheyAreWritten) {
  server_->set_handler([](const Received& request) {
    const Json body = Json::parse(request.body);
    const bool analyst =
        body["messages"][0].value("content", "").find("performance analyst") != std::string::npos;
    if (!analyst || !body.value("stream", false)) return scripted_loop_model(request);
    // Server-sent events whose text comes in pieces of a few bytes, lines cut anywhere.
    llm::testing::Answer answer;
    answer.text = "Diagnosis: the hot line recomputes invariant work.\nPlan:\n1. Hoist it.";
    Reply reply{200, llm::testing::openai_sse(answer)};
    reply.content_type = "text/event-stream";
    return reply;
  });
  std::vector<std::string> args = run_args("licm");
  args.push_back("--verbose");
  ProcessResult run = kopt(args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* shown : {"── analyst ──\nDiagnosis: the hot line recomputes invariant work.\n"
                            "Plan:\n1. Hoist it.\n",
                            "── optimizer ──"})
    EXPECT_NE(run.output.find(shown), std::string::npos) << shown << "\n" << run.output;
  const std::string events = read_file(newest_run("licm") / "events.jsonl").value();
  EXPECT_NE(events.find("Hoist it."), std::string::npos) << "the streamed analysis is recorded";
  ProcessResult replay = kopt({"replay", newest_run("licm").string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
}

TEST_F(LoopTest, AnEmptyRunStillReports) {
  // A run whose process died before its first event: run.json and the events' header only.
  std::filesystem::path dir;
  {
    auto record = RunRecord::create(runs_->path(), "licm",
                                    {{"config", {{"llm", "openai:scripted"}}},
                                     {"benchmark", {{"name", "licm"}}},
                                     {"status", "running"}});
    ASSERT_TRUE(record) << record.error().message;
    dir = record->dir();
  }
  std::filesystem::remove(dir / "lock");  // Its writer is gone: the run reads as stopped.
  auto run_kopt = [this](std::vector<std::string> args) { return kopt(std::move(args)); };
  expect_report_renders(dir, run_kopt, 0, {"No candidate yet", "stopped before it finished"});
}

TEST_F(LoopTest, CtrlCSaysHowToResume) {
  const auto stderr_file = runs_->path() / "stderr.txt";
  auto [pid, dir] = start_and_wait_for_a_candidate(stderr_file);
  ::kill(-pid, SIGINT);  // As a terminal's Ctrl-C does: the whole foreground group.
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
      << "kopt ends by the signal, as an interrupted program should";
  ASSERT_FALSE(dir.empty());
  EXPECT_NE(read_file(stderr_file)
                .value()
                .find("kopt resume " + dir.filename().string() + " continues the run"),
            std::string::npos)
      << read_file(stderr_file).value();
  EXPECT_NE(kopt({"show", dir.string()}).output.find("stopped before it finished"),
            std::string::npos);
}

}  // namespace kopt
