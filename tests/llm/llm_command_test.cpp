// kopt llm ping / chat, run as the real binary.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "agent/llm/server_process.h"
#include "sandbox/process.h"
#include "tests/llm/contract_scenario.h"
#include "util/files.h"

namespace kopt::llm::testing {
namespace {

ProcessResult kopt(std::vector<std::string> args, std::map<std::string, std::string> extra = {}) {
  ProcessSpec spec;
  spec.argv = {KOPT_BINARY};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = current_environment();
  for (const char* name : {"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "KOPT_LLM"})
    spec.env.erase(name);
  for (auto& [key, value] : extra) spec.env[key] = value;
  spec.timeout = std::chrono::milliseconds(60000);
  return LocalProcessRunner().run(spec);
}

size_t lines(const std::string& text) {
  return std::count(text.begin(), text.end(), '\n');
}

const std::string kFakeModel = "exec:python3 " + (test_dir() / "fake_model.py").string();

TEST(LlmCommandTest, BadSpecIsOneLineAndFails) {
  auto result = kopt({"llm", "ping", "--llm", "gpt4"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(lines(result.output), 1u) << result.output;
  EXPECT_NE(result.output.find("unknown LLM spec 'gpt4'"), std::string::npos);
}

TEST(LlmCommandTest, UnreachableServerIsOneLineAndFails) {
  auto port = free_loopback_port();
  ASSERT_TRUE(port.ok());
  auto result = kopt({"llm", "chat", "--llm", "openai:m", "hi"},
                     {{"OPENAI_BASE_URL", "http://127.0.0.1:" + std::to_string(*port) + "/v1"}});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(lines(result.output), 1u) << result.output;
  EXPECT_NE(result.output.find("kopt llm chat: cannot reach"), std::string::npos) << result.output;
}

TEST(LlmCommandTest, MissingKeyIsOneLineAndFails) {
  auto result = kopt({"llm", "chat", "--llm", "anthropic:claude-3-5-haiku-latest", "hi"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(
      result.output,
      "kopt llm chat: ANTHROPIC_API_KEY is not set (keys are read from the environment only)\n");
}

TEST(LlmCommandTest, ChatPrintsTheAnswer) {
  auto result = kopt({"llm", "chat", "--llm", kFakeModel, "--system", "be brief", "hello"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find(kGreeting), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("12 in + 5 out tokens"), std::string::npos) << result.output;
}

TEST(LlmCommandTest, PingReportsModelLatencyTokensAndTools) {
  FakeApiServer server;
  server.set_handler(scenario_handler(false));
  auto result = kopt({"llm", "ping", "--llm", "openai:fake-model-1"},
                     {{"OPENAI_BASE_URL", server.url() + "/v1"}});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("model     fake-model-1"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("12 in + 5 out tokens"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("tools     native"), std::string::npos) << result.output;
}

TEST(LlmCommandTest, StreamedChatPrintsTheSameAnswer) {
  FakeApiServer server;
  server.set_handler(scenario_handler(true));
  auto result = kopt({"llm", "chat", "--stream", "--llm", "anthropic:fake-model-1", "hello"},
                     {{"ANTHROPIC_BASE_URL", server.url()}, {"ANTHROPIC_API_KEY", "k"}});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.rfind(kGreeting + "\n", 0), 0u) << result.output;
}

}  // namespace
}  // namespace kopt::llm::testing

namespace kopt::llm::testing {
namespace {

// Pids of live processes whose command line mentions `marker`.
std::vector<pid_t> processes_mentioning(const std::string& marker) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const bool zombie = line.size() > line.rfind(')') + 2 && line[line.rfind(')') + 2] == 'Z';
    if (!zombie && cmdline.find(marker) != std::string::npos)
      found.push_back(std::atoi(entry.path().filename().c_str()));
  }
  return found;
}

TEST(LlmCommandTest, LocalServerDiesWhenKoptIsKilled) {
  TempDir dir("kopt-orphan-");
  ASSERT_TRUE(write_file(dir.path() / "model.gguf", "GGUF").ok());
  const json config = {{"format", "kopt-local-model/1"},
                       {"server",
                        {"python3", (test_dir() / "fake_llama_server.py").string(), "--model",
                         "{model}", "--port", "{port}", "--load-seconds", "60"}},
                       {"model_path", "model.gguf"}};
  ASSERT_TRUE(write_file(dir.path() / "local-model.json", config.dump()).ok());
  auto env = current_environment();
  env["KOPT_LOCAL_MODEL"] = (dir.path() / "local-model.json").string();
  const std::string marker = (dir.path() / "model.gguf").string();
  // The server binds a port kopt found free; another test may take it first, and then the
  // server and kopt end by themselves. Start again then: this test is about a kill.
  Result<std::unique_ptr<ServerProcess>> kopt = fail("not started");
  for (int attempt = 0; attempt < 3; ++attempt) {
    kopt = ServerProcess::start(
        {{KOPT_BINARY, "llm", "ping", "--llm", "local"}, env, dir.path() / "kopt.log"});
    ASSERT_TRUE(kopt.ok()) << kopt.error().message;
    for (int i = 0; i < 500 && processes_mentioning(marker).empty(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if ((*kopt)->running() && !processes_mentioning(marker).empty()) break;
  }
  ASSERT_FALSE(processes_mentioning(marker).empty()) << "the fake server never started";
  ::kill((*kopt)->pid(), SIGKILL);  // No destructor runs: only the kernel can clean up.
  for (int i = 0; i < 300 && !processes_mentioning(marker).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(processes_mentioning(marker).empty()) << "the local model server outlived kopt";
}

}  // namespace
}  // namespace kopt::llm::testing
