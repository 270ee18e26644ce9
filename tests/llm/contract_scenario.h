// The conversation every backend is tested with: a greeting, a tool call, and a tool result
// sent back. The fake OpenAI and Anthropic servers, the fake exec model (fake_model.py) and
// the recorded run of the replay test all answer it the same way.
#pragma once

#include <filesystem>
#include <string>

#include "agent/llm/chat.h"
#include "tests/llm/fake_api_server.h"
#include "tests/llm/wire_formats.h"

namespace kopt::llm::testing {

inline const std::string kGreeting = "Hello, \xC2\xB5-kernel! \xE2\x9C\x93";
inline const std::string kArguments = R"({"flags":["-O3"],"source":"int main() {}"})";

inline ToolSchema compile_tool() {
  return {"compile", "Compiles a kernel",
          R"({"type":"object","properties":{"source":{"type":"string"},)"
          R"("flags":{"type":"array","items":{"type":"string"}}},"required":["source"]})"};
}

inline ChatRequest greeting_request() {
  ChatRequest request;
  request.system = "You are terse.";
  request.messages = {user_message("Say hello")};
  request.temperature = 0.0;
  request.max_tokens = 64;
  request.seed = 7;
  return request;
}

inline ChatRequest tool_request() {
  ChatRequest request = greeting_request();
  request.messages = {user_message("Compile an empty program")};
  request.tools = {compile_tool()};
  return request;
}

inline ChatRequest tool_result_request() {
  ChatRequest request = tool_request();
  ToolCall call{"call_0", "compile", kArguments, ""};
  request.messages.push_back(assistant_message("", {call}));
  request.messages.push_back(tool_message(call, "build ok"));
  return request;
}

/// The scenario's answer to a request, read from its wire form.
inline Answer scenario_answer(const json& body, bool anthropic) {
  const json& messages = body["messages"];
  const json& last = messages.back();
  std::string result;
  if (!anthropic && last.value("role", "") == "tool") result = last.value("content", "");
  if (anthropic && last["content"].is_array() &&
      last["content"].back().value("type", "") == "tool_result")
    result = last["content"].back().value("content", "");
  Answer answer;
  if (!result.empty())
    answer.text = "tool said: " + result;
  else if (body.contains("tools"))
    answer.calls = {{"compile", R"({"source": "int main() {}", "flags": ["-O3"]})"}};
  else
    answer.text = kGreeting;
  return answer;
}

/// A handler that plays the scenario in the OpenAI or Anthropic format, streaming when asked,
/// with the stream cut into 7-byte chunks (inside UTF-8 sequences and "data:" lines).
inline FakeApiServer::Handler scenario_handler(bool anthropic) {
  return [anthropic](const Received& received) {
    json body = json::parse(received.body);
    Answer answer = scenario_answer(body, anthropic);
    if (!body.value("stream", false))
      return Reply{200, anthropic ? anthropic_json(answer) : openai_json(answer)};
    Reply reply;
    reply.content_type = "text/event-stream";
    reply.chunks = split_every(anthropic ? anthropic_sse(answer) : openai_sse(answer), 7);
    return reply;
  };
}

/// Where this test folder is (for fake_model.py).
inline std::filesystem::path test_dir() {
  return std::filesystem::path(__FILE__).parent_path();
}

}  // namespace kopt::llm::testing
