// What the adapters put on the wire and how they read answers, without a network.
#include <gtest/gtest.h>

#include "agent/llm/api_adapter.h"
#include "tests/llm/contract_scenario.h"

namespace kopt::llm::testing {
namespace {

json body_of(const ApiAdapter& adapter, const ChatRequest& request, bool stream = false) {
  return json::parse(adapter.build(request, stream).body);
}

std::unique_ptr<ApiAdapter> openai(const std::string& model = "gpt-4o-mini") {
  return make_openai_adapter({"http://h/v1", model, nullptr});
}

std::unique_ptr<ApiAdapter> anthropic() {
  return make_anthropic_adapter(
      {"http://h", "claude-x", std::make_shared<const ApiKey>("K", "key")});
}

TEST(OpenAiAdapterTest, BuildsChatCompletionsWithToolsAndHistory) {
  auto adapter = openai();
  const HttpRequest http = adapter->build(tool_result_request(), false);
  EXPECT_EQ(http.url, "http://h/v1/chat/completions");
  const json body = json::parse(http.body);
  EXPECT_EQ(body["model"], "gpt-4o-mini");
  EXPECT_EQ(body["messages"][0], (json{{"role", "system"}, {"content", "You are terse."}}));
  EXPECT_TRUE(body["messages"][2]["content"].is_null());
  EXPECT_EQ(body["messages"][2]["tool_calls"][0]["function"]["arguments"], kArguments);
  EXPECT_EQ(body["messages"][3],
            (json{{"role", "tool"}, {"tool_call_id", "call_0"}, {"content", "build ok"}}));
  EXPECT_EQ(body["tools"][0]["function"]["parameters"]["required"][0], "source");
  EXPECT_EQ(body["tool_choice"], "auto");
  EXPECT_EQ(body["max_tokens"], 64);
  EXPECT_EQ(body["seed"], 7);
  EXPECT_FALSE(body.contains("stream"));
}

TEST(OpenAiAdapterTest, StreamingAsksForUsage) {
  const json body = body_of(*openai(), greeting_request(), true);
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
}

TEST(OpenAiAdapterTest, NamedToolChoiceAndReasoningModels) {
  ChatRequest request = tool_request();
  request.tool_choice = "compile";
  const json body = body_of(*openai("o3-mini"), request);
  EXPECT_EQ(body["tool_choice"]["function"]["name"], "compile");
  EXPECT_EQ(body["max_completion_tokens"], 64);
  EXPECT_FALSE(body.contains("max_tokens"));
}

TEST(OpenAiAdapterTest, KeyTravelsOnlyInTheAuthorizationHeader) {
  auto adapter =
      make_openai_adapter({"http://h/v1", "m", std::make_shared<const ApiKey>("K", "sk-abc123")});
  const HttpRequest http = adapter->build(greeting_request(), false);
  EXPECT_EQ(http.body.find("sk-abc123"), std::string::npos);
  EXPECT_EQ(http.describe().find("sk-abc123"), std::string::npos);
  EXPECT_NE(http.describe().find("Authorization: [redacted]"), std::string::npos);
}

TEST(OpenAiAdapterTest, ReadsContentPartsAndStopWithToolCalls) {
  auto response = openai()->parse(R"({"choices":[{"message":{"content":[{"type":"text","text":"a"},
      {"type":"text","text":"b"}],"tool_calls":[{"function":{"name":"f","arguments":{"x":1}}}]},
      "finish_reason":"stop"}]})");
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "ab");
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].id, "call_0");
  EXPECT_EQ(response->tool_calls[0].arguments, R"({"x":1})");
  EXPECT_EQ(response->finish_reason, FinishReason::tool_calls);
  EXPECT_EQ(response->finish_detail, "stop");
}

TEST(OpenAiAdapterTest, BrokenToolArgumentsAreFlaggedNotFatal) {
  auto response =
      openai()->parse(openai_json({"", {{"compile", R"({"source": "int)"}}, "", 1, 1, "m"}));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->tool_calls[0].arguments_error, "arguments are not valid JSON");
}

TEST(OpenAiAdapterTest, ErrorBodiesAreReadForMessages) {
  EXPECT_EQ(openai()->error_message(R"({"error":{"message":"nope"}})"), "nope");
  EXPECT_EQ(openai()->error_message(R"({"error":"plain"})"), "plain");
  EXPECT_EQ(openai()->error_message("<html>"), "");
  EXPECT_NE(openai()->parse(R"({"error":{"message":"nope"}})").error().message.find("nope"),
            std::string::npos);
}

TEST(OpenAiAdapterTest, StreamAssemblerJoinsToolFragmentsByIndex) {
  auto assembler = openai()->assembler(nullptr);
  const Answer answer{"", {{"a", R"({"n": 1})"}, {"b", R"({"m": [2, 3]})"}}, "", 3, 4, "m"};
  SseParser parser;
  for (const auto& event : parser.feed(openai_sse(answer))) ASSERT_TRUE(assembler->add(event).ok());
  auto response = assembler->finish();
  ASSERT_TRUE(response.ok()) << response.error().message;
  ASSERT_EQ(response->tool_calls.size(), 2u);
  EXPECT_EQ(response->tool_calls[1].name, "b");
  EXPECT_EQ(response->tool_calls[1].arguments, R"({"m":[2,3]})");
  EXPECT_EQ(response->usage, (Usage{3, 4}));
  EXPECT_TRUE(json::parse(response->raw).is_array());
}

TEST(OpenAiAdapterTest, TokenCountsOutsideAnyRealAnswersReadAsNone) {
  auto response = openai()->parse(
      R"({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}],)"
      R"( "usage": {"prompt_tokens": -3, "completion_tokens": 18446744073709551615}})");
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->usage, Usage{});
}

TEST(OpenAiAdapterTest, MalformedStreamEventIsAnError) {
  auto assembler = openai()->assembler(nullptr);
  EXPECT_FALSE(assembler->add({"message", "{\"choices\": [}"}).ok());
}

TEST(AnthropicAdapterTest, BuildsMessagesWithMergedToolResults) {
  ChatRequest request = tool_result_request();
  ToolCall second{"call_1", "compile", "{}", ""};
  request.messages[1].tool_calls.push_back(second);
  request.messages.push_back(tool_message(second, "also ok"));
  const HttpRequest http = anthropic()->build(request, false);
  EXPECT_EQ(http.url, "http://h/v1/messages");
  const json body = json::parse(http.body);
  EXPECT_EQ(body["system"], "You are terse.");
  EXPECT_FALSE(body.contains("seed"));
  ASSERT_EQ(body["messages"].size(), 3u);
  EXPECT_EQ(body["messages"][1]["role"], "assistant");
  EXPECT_EQ(body["messages"][1]["content"].size(), 2u);  // No empty text block.
  EXPECT_EQ(body["messages"][1]["content"][0]["input"]["flags"][0], "-O3");
  EXPECT_EQ(body["messages"][2]["role"], "user");
  EXPECT_EQ(body["messages"][2]["content"].size(), 2u);
  EXPECT_EQ(body["messages"][2]["content"][1]["tool_use_id"], "call_1");
  EXPECT_EQ(body["tools"][0]["input_schema"]["type"], "object");
  EXPECT_EQ(body["tool_choice"]["type"], "auto");
}

TEST(AnthropicAdapterTest, ToolChoiceMapsToTheApiWords) {
  ChatRequest request = tool_request();
  request.tool_choice = "required";
  EXPECT_EQ(body_of(*anthropic(), request)["tool_choice"]["type"], "any");
  request.tool_choice = "compile";
  EXPECT_EQ(body_of(*anthropic(), request)["tool_choice"]["name"], "compile");
}

TEST(AnthropicAdapterTest, ReadsTextAndToolUse) {
  auto response = anthropic()->parse(
      anthropic_json({"thinking", {{"compile", kArguments}}, "", 9, 8, "claude-x"}));
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "thinking");
  EXPECT_EQ(response->tool_calls[0].id, "toolu_0");
  EXPECT_EQ(response->tool_calls[0].arguments, kArguments);
  EXPECT_EQ(response->finish_reason, FinishReason::tool_calls);
  EXPECT_EQ(response->usage, (Usage{9, 8}));
}

TEST(AnthropicAdapterTest, MaxTokensIsLength) {
  auto response = anthropic()->parse(anthropic_json({"cut", {}, "max_tokens", 1, 1, "c"}));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->finish_reason, FinishReason::length);
}

TEST(AnthropicAdapterTest, ErrorObjectsAndMissingContentAreErrors) {
  EXPECT_NE(anthropic()
                ->parse(R"({"type":"error","error":{"type":"overloaded_error","message":"busy"}})")
                .error()
                .message.find("overloaded_error: busy"),
            std::string::npos);
  EXPECT_NE(anthropic()->parse(R"({"type":"message"})").error().message.find("no content"),
            std::string::npos);
}

}  // namespace
}  // namespace kopt::llm::testing

namespace kopt::llm::testing {
namespace {

// Feeds every prefix of a valid answer to an adapter: each must be a value or an Error.
void expect_no_crash_on_any_truncation(const ApiAdapter& adapter, const std::string& body,
                                       const std::string& stream) {
  for (size_t cut = 0; cut < body.size(); ++cut) {
    auto response = adapter.parse(body.substr(0, cut));
    EXPECT_FALSE(response.ok()) << "prefix of " << cut << " bytes was accepted";
  }
  for (size_t cut = 0; cut < stream.size(); cut += 3) {
    auto assembler = adapter.assembler(nullptr);
    SseParser parser;
    bool failed = false;
    for (const auto& event : parser.feed(stream.substr(0, cut)))
      failed = failed || !assembler->add(event).ok();
    for (const auto& event : parser.finish()) failed = failed || !assembler->add(event).ok();
    if (!failed) {
      EXPECT_NO_THROW(assembler->finish());
    }
  }
}

TEST(AdapterRobustnessTest, EveryTruncationOfAnOpenAiAnswerIsAnError) {
  const Answer answer{kGreeting, {{"compile", kArguments}}, "", 3, 4, "m"};
  expect_no_crash_on_any_truncation(*openai(), openai_json(answer), openai_sse(answer));
}

TEST(AdapterRobustnessTest, EveryTruncationOfAnAnthropicAnswerIsAnError) {
  const Answer answer{kGreeting, {{"compile", kArguments}}, "", 3, 4, "m"};
  expect_no_crash_on_any_truncation(*anthropic(), anthropic_json(answer), anthropic_sse(answer));
}

TEST(AdapterRobustnessTest, StreamCutBeforeTheEndIsNeverAComplete) {
  const Answer answer{kGreeting, {}, "", 3, 4, "m"};
  const std::string stream = openai_sse(answer);
  const size_t finish = stream.find("\"finish_reason\":\"stop\"");
  auto assembler = openai()->assembler(nullptr);
  SseParser parser;
  for (const auto& event : parser.feed(stream.substr(0, finish)))
    ASSERT_TRUE(assembler->add(event).ok());
  EXPECT_FALSE(assembler->finish().ok());
}

}  // namespace
}  // namespace kopt::llm::testing
