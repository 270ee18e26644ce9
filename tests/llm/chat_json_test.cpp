#include "agent/llm/chat_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/llm/request_diff.h"
#include "tests/llm/contract_scenario.h"

namespace kopt::llm::testing {
namespace {

TEST(ChatJsonTest, RequestRoundTripsThroughJson) {
  ChatRequest request = tool_result_request();
  request.stop = {"</code>"};
  request.tool_choice = "required";
  auto again = request_from_json(to_json(request));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(canonical_request(*again), canonical_request(request));
  EXPECT_EQ(again->messages, request.messages);
  EXPECT_EQ(again->seed, request.seed);
}

TEST(ChatJsonTest, FieldNamesAreStable) {
  const Json json = to_json(tool_result_request());
  for (const char* key :
       {"system", "messages", "tools", "tool_choice", "temperature", "max_tokens", "seed", "stop"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["messages"][1]["tool_calls"][0]["arguments"]["flags"][0], "-O3");
  EXPECT_EQ(json["messages"][2]["tool_call_id"], "call_0");
  EXPECT_EQ(json["tools"][0]["parameters"]["type"], "object");
}

TEST(ChatJsonTest, UnsetOptionsAreLeftOut) {
  ChatRequest request;
  request.messages = {user_message("hi")};
  const Json json = to_json(request);
  EXPECT_FALSE(json.contains("temperature"));
  EXPECT_FALSE(json.contains("seed"));
}

TEST(ChatJsonTest, ResponseRoundTripsWithRawEmbeddedAsJson) {
  ChatResponse response{"ok",
                        {make_tool_call("c1", "run", R"({"n": 3})")},
                        FinishReason::tool_calls,
                        "tool_calls",
                        {3, 4},
                        "m",
                        1.5,
                        2,
                        R"({"id":"x"})"};
  const Json json = to_json(response);
  EXPECT_EQ(json["raw"]["id"], "x");
  EXPECT_EQ(json["tool_calls"][0]["arguments"]["n"], 3);
  auto again = response_from_json(json);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(dump_json(to_json(*again)), dump_json(json));
}

TEST(ChatJsonTest, MinimalResponseNeedsOnlyText) {
  auto response = response_from_json(Json::parse(R"({"text": "hi"})"));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->finish_reason, FinishReason::stop);
  EXPECT_EQ(response->usage, Usage{});
}

// A backend's token counts past any real answer's (negative, 2^64-1 read as -1, 1e300) once went
// into the run's sum as they were: a token budget never reached, a signed overflow.
TEST(ChatJsonTest, TokenCountsOutsideAnyRealAnswersReadAsNone) {
  for (const char* count : {"-5", "18446744073709551615", "9223372036854775807", "1e300"}) {
    auto response = response_from_json(Json::parse(std::string(R"({"text": "hi", "usage": {)") +
                                                   R"("input_tokens": )" + count +
                                                   R"(, "output_tokens": 7}})"));
    ASSERT_TRUE(response.ok()) << count;
    EXPECT_EQ(response->usage, (Usage{0, 7})) << count;
  }
}

TEST(ChatJsonTest, BadResponsesNameTheProblem) {
  EXPECT_NE(response_from_json(Json::parse("[1]")).error().message.find("object"),
            std::string::npos);
  EXPECT_NE(response_from_json(Json::parse(R"({"answer":"x"})")).error().message.find("neither"),
            std::string::npos);
  EXPECT_NE(response_from_json(Json::parse(R"({"text": 5})")).error().message.find("'text'"),
            std::string::npos);
  EXPECT_FALSE(response_from_json(Json::parse(R"({"tool_calls": [{"arguments": {}}]})")).ok());
  EXPECT_FALSE(
      response_from_json(Json::parse(R"({"tool_calls": [{"name":"a","arguments": 3}]})")).ok());
}

TEST(ChatJsonTest, ToolArgumentsAreNormalizedOrFlagged) {
  EXPECT_EQ(make_tool_call("i", "t", R"({ "b": 1,  "a": 2 })").arguments, R"({"a":2,"b":1})");
  EXPECT_EQ(make_tool_call("i", "t", "").arguments, "{}");
  ToolCall broken = make_tool_call("i", "t", R"({"a": )");
  EXPECT_EQ(broken.arguments, R"({"a": )");
  EXPECT_EQ(broken.arguments_error, "arguments are not valid JSON");
  EXPECT_FALSE(parse_arguments(broken).ok());
  EXPECT_EQ(make_tool_call("i", "t", "[1]").arguments_error, "arguments are not a JSON object");
  EXPECT_EQ((*parse_arguments(make_tool_call("i", "t", R"({"a":2})")))["a"], 2);
}

TEST(ChatJsonTest, InvalidUtf8IsDumpedNotThrown) {
  ChatResponse response;
  response.text = "bad \xFF byte";
  EXPECT_NO_THROW(dump_json(to_json(response)));
}

TEST(RequestHashTest, EqualRequestsHashEqual) {
  EXPECT_EQ(request_hash(tool_request()), request_hash(tool_request()));
  EXPECT_EQ(request_hash(tool_request()).size(), 32u);
}

TEST(RequestHashTest, EverythingTheModelSeesChangesTheHash) {
  const std::string base = request_hash(tool_result_request());
  std::vector<std::function<void(ChatRequest&)>> changes = {
      [](ChatRequest& r) { r.system += " "; },
      [](ChatRequest& r) { r.messages[0].content = "x"; },
      [](ChatRequest& r) { r.messages[1].tool_calls[0].arguments = R"({"source":"x"})"; },
      [](ChatRequest& r) { r.messages[2].tool_call_id = "other"; },
      [](ChatRequest& r) { r.tools[0].description = "y"; },
      [](ChatRequest& r) { r.tool_choice = "required"; },
      [](ChatRequest& r) { r.temperature = 0.5; },
      [](ChatRequest& r) { r.max_tokens = 65; },
      [](ChatRequest& r) { r.seed.reset(); },
      [](ChatRequest& r) { r.stop = {"x"}; },
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    ChatRequest changed = tool_result_request();
    changes[i](changed);
    EXPECT_NE(request_hash(changed), base) << "change " << i;
  }
}

TEST(RequestHashTest, SchemaSpacingDoesNotChangeTheHash) {
  ChatRequest spaced = tool_request();
  spaced.tools[0].parameters = R"({ "type" : "object",
    "required": ["source"], "properties": {"source": {"type":"string"},
    "flags": {"type": "array", "items": {"type": "string"}}}})";
  EXPECT_EQ(request_hash(spaced), request_hash(tool_request()));
}

TEST(ModelCallEventTest, CarriesTheRecordContract) {
  const Json event = model_call_event(4, "analyst", greeting_request(), ChatResponse{});
  EXPECT_EQ(event["type"], "model_call");
  EXPECT_EQ(event["seq"], 4);
  EXPECT_EQ(event["role"], "analyst");
  EXPECT_EQ(event["request_hash"], request_hash(greeting_request()));
  EXPECT_EQ(event["request"]["system"], "You are terse.");
  EXPECT_TRUE(event["response"].contains("text"));
}

TEST(RequestDiffTest, NamesTheMessageAndCharacter) {
  ChatRequest recorded = tool_result_request();
  ChatRequest now = recorded;
  now.messages[2].content = "build failed";
  EXPECT_EQ(first_difference(recorded, now),
            "message 3 (tool) differs at character 6: recorded 'build ok' vs now 'build failed'");
}

TEST(RequestDiffTest, ExcerptsKeepUtf8WholeAndShowLineBreaks) {
  const std::string recorded = "line one\nmu \xC2\xB5 end";
  const std::string now = "line one\nmu \xC2\xB6 end";
  EXPECT_EQ(describe_text_difference(recorded, now),
            "differs at character 12: recorded 'line one\\nmu \xC2\xB5 end' vs now 'line one\\nmu "
            "\xC2\xB6 end'");
}

TEST(RequestDiffTest, LongTextsAreCut) {
  const std::string a = std::string(100, 'a') + "X" + std::string(100, 'b');
  const std::string b = std::string(100, 'a') + "Y" + std::string(100, 'b');
  const std::string diff = describe_text_difference(a, b);
  EXPECT_NE(diff.find("character 100"), std::string::npos);
  EXPECT_NE(diff.find("...aaaa"), std::string::npos);
  EXPECT_LT(diff.size(), 200u);
}

TEST(RequestDiffTest, OptionsAndCountsAreCompared) {
  ChatRequest recorded = greeting_request();
  ChatRequest now = recorded;
  now.temperature = 0.7;
  EXPECT_EQ(first_difference(recorded, now), "temperature: recorded 0.0 vs now 0.7");
  now = recorded;
  now.messages.push_back(user_message("more"));
  EXPECT_EQ(first_difference(recorded, now), "message count: recorded 1 vs now 2");
  EXPECT_EQ(first_difference(recorded, recorded), "");
}

}  // namespace
}  // namespace kopt::llm::testing
