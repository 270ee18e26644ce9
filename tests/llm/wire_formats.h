// What the OpenAI and Anthropic APIs send back, built from a short description: whole JSON
// bodies and SSE streams whose text and tool arguments arrive in fragments.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace kopt::llm::testing {

using nlohmann::json;

/// A model's answer, independent of the wire format.
struct Answer {
  std::string text;
  std::vector<std::pair<std::string, std::string>> calls;  ///< Name and arguments JSON text.
  std::string finish;  ///< Provider word; empty: derived from the calls.
  int input_tokens = 12;
  int output_tokens = 5;
  std::string model = "fake-model-1";
};

/// Pieces of `text` of about `size` bytes, whole UTF-8 sequences each (as a server streams
/// deltas: each is valid JSON text).
inline std::vector<std::string> fragments(const std::string& text, size_t size) {
  std::vector<std::string> pieces;
  for (size_t at = 0; at < text.size();) {
    size_t end = std::min(text.size(), at + size);
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    pieces.push_back(text.substr(at, end - at));
    at = end;
  }
  return pieces;
}

inline std::string sse(const json& data) {
  return "data: " + data.dump() + "\n\n";
}

inline std::string openai_json(const Answer& a) {
  json message = {{"role", "assistant"},
                  {"content", a.text.empty() ? json(nullptr) : json(a.text)}};
  for (size_t i = 0; i < a.calls.size(); ++i) {
    message["tool_calls"].push_back(
        {{"id", "call_" + std::to_string(i)},
         {"type", "function"},
         {"function", {{"name", a.calls[i].first}, {"arguments", a.calls[i].second}}}});
  }
  const std::string finish = !a.finish.empty() ? a.finish : a.calls.empty() ? "stop" : "tool_calls";
  return json{
      {"id", "chatcmpl-1"},
      {"object", "chat.completion"},
      {"model", a.model},
      {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
      {"usage", {{"prompt_tokens", a.input_tokens}, {"completion_tokens", a.output_tokens}}}}
      .dump();
}

inline json openai_chunk(const std::string& model, json delta, json finish = nullptr) {
  return {{"id", "chatcmpl-1"},
          {"object", "chat.completion.chunk"},
          {"model", model},
          {"choices", {{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish}}}}};
}

inline std::string openai_sse(const Answer& a) {
  std::string out = sse(openai_chunk(a.model, {{"role", "assistant"}, {"content", ""}}));
  for (const auto& piece : fragments(a.text, 4))
    out += sse(openai_chunk(a.model, {{"content", piece}}));
  for (size_t i = 0; i < a.calls.size(); ++i) {
    json head = {{"index", i},
                 {"id", "call_" + std::to_string(i)},
                 {"type", "function"},
                 {"function", {{"name", a.calls[i].first}, {"arguments", ""}}}};
    out += sse(openai_chunk(a.model, {{"tool_calls", {head}}}));
    for (const auto& piece : fragments(a.calls[i].second, 5)) {
      json part = {{"index", i}, {"function", {{"arguments", piece}}}};
      out += sse(openai_chunk(a.model, {{"tool_calls", {part}}}));
    }
  }
  const std::string finish = !a.finish.empty() ? a.finish : a.calls.empty() ? "stop" : "tool_calls";
  out += sse(openai_chunk(a.model, json::object(), finish));
  out +=
      sse({{"id", "chatcmpl-1"},
           {"model", a.model},
           {"choices", json::array()},
           {"usage", {{"prompt_tokens", a.input_tokens}, {"completion_tokens", a.output_tokens}}}});
  return out + "data: [DONE]\n\n";
}

inline std::string anthropic_json(const Answer& a) {
  json content = json::array();
  if (!a.text.empty()) content.push_back({{"type", "text"}, {"text", a.text}});
  for (size_t i = 0; i < a.calls.size(); ++i) {
    content.push_back({{"type", "tool_use"},
                       {"id", "toolu_" + std::to_string(i)},
                       {"name", a.calls[i].first},
                       {"input", json::parse(a.calls[i].second)}});
  }
  const std::string stop = !a.finish.empty() ? a.finish : a.calls.empty() ? "end_turn" : "tool_use";
  return json{{"id", "msg_1"},
              {"type", "message"},
              {"role", "assistant"},
              {"model", a.model},
              {"content", content},
              {"stop_reason", stop},
              {"usage", {{"input_tokens", a.input_tokens}, {"output_tokens", a.output_tokens}}}}
      .dump();
}

inline std::string anthropic_event(const std::string& type, json data) {
  data["type"] = type;
  return "event: " + type + "\ndata: " + data.dump() + "\n\n";
}

inline std::string anthropic_sse(const Answer& a) {
  std::string out = anthropic_event(
      "message_start", {{"message",
                         {{"id", "msg_1"},
                          {"type", "message"},
                          {"role", "assistant"},
                          {"model", a.model},
                          {"content", json::array()},
                          {"usage", {{"input_tokens", a.input_tokens}, {"output_tokens", 1}}}}}});
  int index = 0;
  if (!a.text.empty()) {
    out += anthropic_event("content_block_start",
                           {{"index", index}, {"content_block", {{"type", "text"}, {"text", ""}}}});
    out += "event: ping\ndata: {\"type\": \"ping\"}\n\n";
    for (const auto& piece : fragments(a.text, 4))
      out +=
          anthropic_event("content_block_delta",
                          {{"index", index}, {"delta", {{"type", "text_delta"}, {"text", piece}}}});
    out += anthropic_event("content_block_stop", {{"index", index++}});
  }
  for (size_t i = 0; i < a.calls.size(); ++i, ++index) {
    json block = {{"type", "tool_use"},
                  {"id", "toolu_" + std::to_string(i)},
                  {"name", a.calls[i].first},
                  {"input", json::object()}};
    out += anthropic_event("content_block_start", {{"index", index}, {"content_block", block}});
    for (const auto& piece : fragments(a.calls[i].second, 5)) {
      out += anthropic_event(
          "content_block_delta",
          {{"index", index}, {"delta", {{"type", "input_json_delta"}, {"partial_json", piece}}}});
    }
    out += anthropic_event("content_block_stop", {{"index", index}});
  }
  const std::string stop = !a.finish.empty() ? a.finish : a.calls.empty() ? "end_turn" : "tool_use";
  out += anthropic_event("message_delta", {{"delta", {{"stop_reason", stop}}},
                                           {"usage", {{"output_tokens", a.output_tokens}}}});
  return out + anthropic_event("message_stop", json::object());
}

}  // namespace kopt::llm::testing
