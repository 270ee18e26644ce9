// Campaigns through a real Slurm: the one-node cluster scripts/setup-slurm.sh starts on this
// machine (scripts/test.sh runs it). An experiment of two models x two strategies x two
// benchmarks goes to the cluster as one allocation, its runs as job steps; the allocation is
// cancelled in the middle; the same command again finishes the campaign without redoing a
// finished run. Skipped, with the reason, where no Slurm answers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "../llm/fake_api_server.h"
#include "../support/kopt_cli.h"
#include "../support/small_suite.h"
#include "util/files.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;
using llm::testing::FakeApiServer;
using llm::testing::Received;
using llm::testing::Reply;

// Why Slurm cannot be used here, or "" when it can.
std::string slurm_missing() {
  ProcessSpec spec;
  spec.argv = {(test::source_root() / "scripts/setup-slurm.sh").string(), "--check"};
  spec.env = {{"PATH", "/usr/sbin:/usr/bin:/sbin:/bin"}};
  spec.timeout = std::chrono::seconds(30);
  ProcessResult r = LocalProcessRunner().run(spec);
  return r.succeeded() ? ""
                       : "no usable Slurm here (scripts/setup-slurm.sh --check: " + r.output +
                             "); scripts/test.sh sets up a one-node Slurm";
}

// A model that answers after a pause and never hands in a kernel: each run lasts a few seconds.
Reply slow_answer(const Received&) {
  Reply reply{
      200,
      dump_json({{"id", "chatcmpl-slurm"},
                 {"object", "chat.completion"},
                 {"model", "scripted"},
                 {"choices",
                  {{{"index", 0},
                    {"message",
                     {{"role", "assistant"}, {"content", "Diagnosis: fine.\nPlan:\n1. Nothing."}}},
                    {"finish_reason", "stop"}}}},
                 {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 10}}}})};
  reply.delay_before = std::chrono::milliseconds(1500);
  return reply;
}

std::vector<Json> index_lines(const fs::path& campaign) {
  std::vector<Json> lines;
  auto text = read_file(campaign / "index.jsonl");
  if (!text) return lines;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  return lines;
}

size_t finished_cells(const fs::path& campaign) {
  std::set<std::string> cells;
  for (const Json& l : index_lines(campaign))
    if (l["status"] == "finished")
      cells.insert(l["benchmark"].get<std::string>() + l["llm"].get<std::string>() +
                   l["strategy"].get<std::string>());
  return cells.size();
}

TEST(SlurmCampaignTest, AnExperimentRunsAsJobStepsAndResumesAfterItsAllocationIsCancelled) {
  constexpr size_t kRuns = 4;
  if (const std::string why = slurm_missing(); !why.empty()) GTEST_SKIP() << why;
  FakeApiServer server;
  server.set_handler(slow_answer);
  TempDir suite("kopt-slurm-suite-"), runs("kopt-slurm-runs-");
  // One benchmark, four runs (two models, two strategies): under CI's load, where every run's
  // timing waits for the CPUs, eight runs took the resumed campaign past its 400 s.
  test::copy_small_benchmark("licm", suite.path() / "licm");
  const fs::path campaign = runs.path() / "on-slurm";
  const std::vector<std::string> args = {"campaign",        suite.path().string(),
                                         "--executor",      "slurm",
                                         "--jobs",          "2",
                                         "--llm",           "openai:model-a",
                                         "--llm",           "openai:model-b",
                                         "--strategy",      "direct",
                                         "--strategy",      "marco",
                                         "--iterations",    "1",
                                         "--timing-budget", "0",
                                         "--into",          campaign.string(),
                                         "--out",           runs.path().string()};
  const std::map<std::string, std::string> env = {{"OPENAI_BASE_URL", server.url() + "/v1"},
                                                  {"OPENAI_API_KEY", "sk-test-slurm-0123456789"},
                                                  {"KOPT_SLURM_POLL_S", "0.5"},
                                                  {"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"}};
  ProcessResult first;
  std::atomic<bool> done{false};
  std::thread campaign_thread([&] {
    first = test::run_kopt(args, std::chrono::seconds(400), env);
    done = true;
  });
  // Cancel the allocation once some, not all, runs have finished.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (!done && finished_cells(campaign) == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto jobs = read_file(campaign / "slurm" / "jobs.jsonl");
  ASSERT_TRUE(jobs.ok()) << "no job was submitted";
  const std::string job = Json::parse(jobs->substr(0, jobs->find('\n')))["job"];
  ProcessSpec cancel;
  cancel.argv = {"/usr/bin/scancel", job};
  cancel.env = {{"PATH", "/usr/bin:/bin"}};
  EXPECT_TRUE(LocalProcessRunner().run(cancel).succeeded());
  campaign_thread.join();
  const size_t before = finished_cells(campaign);
  EXPECT_NE(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("Slurm job " + job + " CANCELLED"), std::string::npos)
      << first.output;
  EXPECT_NE(first.output.find("kopt campaign again resumes it"), std::string::npos) << first.output;
  ASSERT_GE(before, 1u) << first.output;
  ASSERT_LT(before, kRuns) << "the allocation ended after every run: nothing left to resume";

  // The same command again: a new allocation for what is unfinished, nothing redone.
  ProcessResult again = test::run_kopt(args, std::chrono::seconds(400), env);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(finished_cells(campaign), kRuns) << again.output;
  size_t skipped = 0;
  for (size_t at = again.output.find("finished before"); at != std::string::npos;
       at = again.output.find("finished before", at + 1))
    ++skipped;
  EXPECT_EQ(skipped, before) << again.output;
  size_t run_folders = 0, logs = 0;
  for (const auto& entry : fs::directory_iterator(campaign)) {
    run_folders += fs::exists(entry.path() / "run.json");
    logs += entry.path().extension() == ".log";
  }
  EXPECT_EQ(run_folders, kRuns)
      << "a run cut off by the cancellation is resumed, not started again";
  EXPECT_EQ(logs, kRuns) << "each run's step writes its own log";
  size_t scripts = 0;
  for (const auto& entry : fs::directory_iterator(campaign / "slurm"))
    scripts += entry.path().extension() == ".sh";
  EXPECT_EQ(scripts, 2u) << "one allocation, then one for the unfinished runs";
  for (const Json& line : index_lines(campaign)) {
    if (line["status"] != "finished") continue;
    const Json run = read_json_file(campaign / line["run"].get<std::string>() / "run.json").value();
    EXPECT_EQ(run["status"], "finished") << line.dump();
  }
  ProcessResult compare = test::run_kopt({"compare", campaign.string(), "--json"});
  ASSERT_EQ(compare.exit_code, 0) << compare.output;
  const Json table = test::last_json(compare.output);
  EXPECT_EQ(table["rows"].size(), kRuns) << compare.output;
  EXPECT_EQ(table["models"].size(), 4u) << compare.output;
}

TEST(SlurmCampaignTest, WithoutSlurmTheExecutorIsRefusedInOneLine) {
  TempDir suite("kopt-slurm-suite-");
  fs::copy(test::source_root() / "benchmarks/cpu/licm", suite.path() / "licm",
           fs::copy_options::recursive);
  ProcessResult r = test::run_kopt({"campaign", suite.path().string(), "--executor", "slurm",
                                    "--llm", "openai:x", "--into", (suite.path() / "c").string()},
                                   std::chrono::seconds(60), {{"PATH", "/nonexistent"}});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no sbatch on the PATH"), std::string::npos) << r.output;
  ProcessResult bad = test::run_kopt({"campaign", suite.path().string(), "--executor", "pbs"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--executor must be local or slurm"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace kopt
