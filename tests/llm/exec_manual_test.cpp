// The backends that are not HTTP: a command behind exec:, and an operator behind manual.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "agent/llm/exec_backend.h"
#include "agent/llm/manual_backend.h"
#include "agent/llm/text_tools.h"
#include "tests/llm/contract_scenario.h"
#include "util/files.h"

namespace kopt::llm::testing {
namespace {

using std::chrono::milliseconds;

Result<ChatResponse> exec_chat(const std::string& command,
                               milliseconds timeout = milliseconds(10000)) {
  ExecBackend backend({command, timeout, nullptr});
  return backend.chat(greeting_request());
}

TEST(ExecBackendTest, ReceivesTheRequestJsonOnStdin) {
  auto response = exec_chat(
      R"(python3 -c 'import json,sys; r=json.load(sys.stdin); print(json.dumps({"text": r["system"] + "/" + r["messages"][0]["content"]}))')");
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "You are terse./Say hello");
  EXPECT_EQ(response->model, "exec");
}

TEST(ExecBackendTest, StandardErrorDoesNotSpoilTheReply) {
  auto response = exec_chat(R"(echo chatter >&2; echo '{"text": "clean"}')");
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "clean");
}

TEST(ExecBackendTest, FailingCommandQuotesItsStandardError) {
  auto response = exec_chat("echo 'model not found: foo' >&2; exit 3");
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("failed (exit status 3): model not found: foo"),
            std::string::npos)
      << response.error().message;
}

TEST(ExecBackendTest, NonJsonAndWrongShapesAreClearErrors) {
  EXPECT_NE(exec_chat("echo hello").error().message.find("not JSON: 'hello'"), std::string::npos);
  EXPECT_NE(exec_chat("true").error().message.find("replied with nothing"), std::string::npos);
  EXPECT_NE(exec_chat(R"(echo '{"answer": 1}')").error().message.find("bad response"),
            std::string::npos);
}

TEST(ExecBackendTest, SlowCommandTimesOut) {
  auto response = exec_chat("sleep 5", milliseconds(300));
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("timed out"), std::string::npos)
      << response.error().message;
}

class ManualBackendTest : public ::testing::Test {
 protected:
  ManualConfig config(int fd) {
    ManualConfig c;
    c.dir = dir.path() / "manual";
    c.input_fd = fd;
    c.out = shown;
    c.poll = milliseconds(20);
    c.timeout = milliseconds(5000);
    return c;
  }
  void TearDown() override { std::fclose(shown); }
  std::string shown_text() {
    std::fflush(shown);
    return *read_file(dir.path() / "shown.txt");
  }

  TempDir dir{"kopt-manual-"};
  std::FILE* shown = std::fopen((dir.path() / "shown.txt").c_str(), "w");
};

TEST_F(ManualBackendTest, AnswerFileIsTakenOnceWritten) {
  ManualBackend backend(config(-1));
  std::thread operator_thread([&] {
    while (!std::filesystem::exists(dir.path() / "manual" / "prompt-0001.md"))
      std::this_thread::sleep_for(milliseconds(10));
    ASSERT_TRUE(
        write_file(dir.path() / "manual" / "answer-0001.md", "```cpp\nint f();\n```\n").ok());
  });
  auto response = backend.chat(greeting_request());
  operator_thread.join();
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(*extract_code(response->text), "int f();\n");
  EXPECT_NE(read_file(dir.path() / "manual" / "prompt-0001.md")->find("Say hello"),
            std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "manual" / "request-0001.json"));
  EXPECT_NE(shown_text().find("answer-0001.md"), std::string::npos);
}

TEST_F(ManualBackendTest, TypedAnswerEndsAtALoneDot) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ManualBackend backend(config(fds[0]));
  const std::string typed = "line one\nline two\n.\nleft for the next prompt\n";
  ASSERT_EQ(::write(fds[1], typed.data(), typed.size()), static_cast<ssize_t>(typed.size()));
  auto response = backend.chat(greeting_request());
  ::close(fds[1]);
  auto next = backend.chat(greeting_request());
  ::close(fds[0]);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "line one\nline two\n");
  ASSERT_TRUE(next.ok()) << next.error().message;
  EXPECT_EQ(next->text, "left for the next prompt\n");
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "manual" / "prompt-0002.md"));
}

TEST_F(ManualBackendTest, NumberingContinuesAfterEarlierPrompts) {
  ASSERT_TRUE(write_file(dir.path() / "manual" / "prompt-0007.md", "old").ok());
  ASSERT_TRUE(write_file(dir.path() / "manual" / "answer-0008.md", "ready").ok());
  auto response = ManualBackend(config(-1)).chat(greeting_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "ready");
}

TEST_F(ManualBackendTest, NoAnswerInTimeIsAnError) {
  ManualConfig c = config(-1);
  c.timeout = milliseconds(100);
  auto response = ManualBackend(c).chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("no answer"), std::string::npos);
}

TEST_F(ManualBackendTest, OperatorCallsToolsThroughText) {
  ASSERT_TRUE(
      write_file(dir.path() / "manual" / "answer-0001.md",
                 "```tool_call\n{\"name\": \"compile\", \"arguments\": {\"source\": \"x\"}}\n```\n")
          .ok());
  auto backend = with_text_tools(std::make_unique<ManualBackend>(config(-1)));
  auto response = backend->chat(tool_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].arguments, R"({"source":"x"})");
  EXPECT_NE(
      read_file(dir.path() / "manual" / "prompt-0001.md")->find("- compile: Compiles a kernel"),
      std::string::npos);
}

}  // namespace
}  // namespace kopt::llm::testing
