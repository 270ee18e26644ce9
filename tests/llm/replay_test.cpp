#include "agent/llm/replay_backend.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "agent/llm/chat_json.h"
#include "tests/llm/contract_scenario.h"
#include "util/files.h"

namespace kopt::llm::testing {
namespace {

ChatResponse text_response(const std::string& text) {
  ChatResponse response;
  response.text = text;
  return response;
}

class ReplayTest : public ::testing::Test {
 protected:
  void record(const ChatRequest& request, const std::string& answer) {
    const std::string call =
        dump_json(model_call_event(++seq, "optimizer", request, text_response(answer)));
    const std::string other = R"({"type":"tool_call","seq":)" + std::to_string(++seq) + "}";
    std::ofstream(run.path() / "events.jsonl", std::ios::app) << call << "\n" << other << "\n";
  }
  TempDir run{"kopt-replay-"};
  int seq = 0;
};

TEST_F(ReplayTest, RecurringRequestsGetTheirAnswersInOrder) {
  record(greeting_request(), "first");
  record(tool_request(), "other");
  record(greeting_request(), "second");
  ReplayBackend replay(run.path());
  EXPECT_EQ(replay.chat(greeting_request())->text, "first");
  EXPECT_EQ(replay.chat(greeting_request())->text, "second");
  EXPECT_EQ(replay.chat(tool_request())->text, "other");
  EXPECT_EQ(replay.recorded_calls(), 3u);
  auto exhausted = replay.chat(greeting_request());
  ASSERT_FALSE(exhausted.ok());
  EXPECT_NE(exhausted.error().message.find("recorded 2 time(s)"), std::string::npos);
}

TEST_F(ReplayTest, UnrecordedRequestShowsTheFirstDifferenceFromTheNearest) {
  record(greeting_request(), "hello");
  record(tool_result_request(), "done");
  ChatRequest changed = tool_result_request();
  changed.messages[2].content = "build failed: missing ;";
  auto response = ReplayBackend(run.path()).chat(changed);
  ASSERT_FALSE(response.ok());
  EXPECT_NE(
      response.error().message.find("nearest is line 3: message 3 (tool) differs at character 6: "
                                    "recorded 'build ok' vs now 'build failed: missing ;'"),
      std::string::npos)
      << response.error().message;
}

TEST_F(ReplayTest, MissingRunIsAClearError) {
  ReplayBackend replay(run.path() / "nope");
  auto status = replay.prepare();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cannot open"), std::string::npos)
      << status.error().message;
  EXPECT_FALSE(replay.chat(greeting_request()).ok());
}

TEST_F(ReplayTest, BrokenLineNamesItsNumber) {
  record(greeting_request(), "hello");
  std::ofstream(run.path() / "events.jsonl", std::ios::app) << "{not json\n";
  auto status = ReplayBackend(run.path()).prepare();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("line 3 is not valid JSON"), std::string::npos)
      << status.error().message;
}

TEST_F(ReplayTest, StreamingCallersGetTheTextToo) {
  record(greeting_request(), "hello");
  std::string seen;
  auto response =
      ReplayBackend(run.path()).chat(greeting_request(), {true, [&](std::string_view t) {
                                                            seen += t;
                                                          }});
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(seen, "hello");
}

}  // namespace
}  // namespace kopt::llm::testing
