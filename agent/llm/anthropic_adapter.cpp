// The Anthropic Messages format: POST {base}/v1/messages.
#include <nlohmann/json.hpp>

#include "agent/llm/anthropic_stream.h"
#include "agent/llm/api_adapter.h"
#include "agent/llm/chat_json.h"
#include "agent/llm/json_read.h"

namespace kopt::llm {

namespace {

constexpr const char* kApiVersion = "2023-06-01";

Json object_or_empty(const std::string& text) {
  Json parsed = parse_json_or_discarded(text);
  return parsed.is_object() ? parsed : Json::object();
}

// Content blocks of one message; empty text blocks are left out (the API refuses them).
Json blocks(const Message& message) {
  Json content = Json::array();
  if (message.role == Role::tool) {
    content.push_back({{"type", "tool_result"},
                       {"tool_use_id", message.tool_call_id},
                       {"content", message.content}});
    return content;
  }
  if (!message.content.empty()) content.push_back({{"type", "text"}, {"text", message.content}});
  for (const auto& call : message.tool_calls) {
    content.push_back({{"type", "tool_use"},
                       {"id", call.id},
                       {"name", call.name},
                       {"input", object_or_empty(call.arguments)}});
  }
  return content;
}

// Tool results travel as user turns; consecutive turns of one role are merged into one.
Json messages_json(const std::vector<Message>& messages) {
  Json list = Json::array();
  for (const auto& message : messages) {
    const std::string role = message.role == Role::assistant ? "assistant" : "user";
    Json content = blocks(message);
    if (!list.empty() && list.back()["role"] == role) {
      for (auto& block : content) list.back()["content"].push_back(std::move(block));
    } else {
      list.push_back({{"role", role}, {"content", std::move(content)}});
    }
  }
  return list;
}

Json anthropic_tool_choice(const std::string& choice) {
  if (choice == "auto" || choice == "none") return {{"type", choice}};
  if (choice == "required") return {{"type", "any"}};
  return {{"type", "tool"}, {"name", choice}};
}

class AnthropicAdapter : public ApiAdapter {
 public:
  explicit AnthropicAdapter(ApiEndpoint endpoint) : endpoint_(std::move(endpoint)) {}

  /// Anthropic has no seed: a request's seed is not sent.
  HttpRequest build(const ChatRequest& request, bool stream) const override {
    Json body = {{"model", endpoint_.model},
                 {"max_tokens", request.max_tokens},
                 {"messages", messages_json(request.messages)}};
    if (!request.system.empty()) body["system"] = request.system;
    if (!request.tools.empty()) {
      Json tools = Json::array();
      for (const auto& tool : request.tools) {
        Json schema = object_or_empty(tool.parameters);
        if (schema.empty()) schema = {{"type", "object"}};
        tools.push_back(
            {{"name", tool.name}, {"description", tool.description}, {"input_schema", schema}});
      }
      body["tools"] = std::move(tools);
      body["tool_choice"] = anthropic_tool_choice(request.tool_choice);
    }
    if (request.temperature) body["temperature"] = *request.temperature;
    if (!request.stop.empty()) body["stop_sequences"] = request.stop;
    if (stream) body["stream"] = true;
    HttpRequest http{"POST",
                     endpoint_.base_url + "/v1/messages",
                     {{"Content-Type", "application/json"}, {"anthropic-version", kApiVersion}},
                     dump_json(body)};
    if (stream) http.headers.emplace_back("Accept", "text/event-stream");
    if (endpoint_.api_key) http.headers.emplace_back("x-api-key", endpoint_.api_key->reveal());
    return http;
  }

  Result<ChatResponse> parse(const std::string& body) const override {
    auto json = parse_json(body, "the server's response");
    if (!json) return json.error();
    try {
      if (string_at(*json, "type") == "error")
        return fail("the server reported an error: " + anthropic_error(*json));
      const Json* content = member(*json, "content");
      if (!content || !content->is_array()) return fail("the server's response has no content");
      ChatResponse response;
      for (const auto& block : *content) {
        const std::string type = string_at(block, "type");
        if (type == "text") response.text += string_at(block, "text");
        if (type == "tool_use") {
          const Json* input = member(block, "input");
          response.tool_calls.push_back(make_tool_call(
              string_at(block, "id"), string_at(block, "name"), input ? dump_json(*input) : "{}"));
        }
      }
      response.finish_detail = string_at(*json, "stop_reason");
      response.finish_reason = anthropic_finish_reason(response.finish_detail);
      const Json& usage = object_at(*json, "usage");
      response.usage = {token_count_at(usage, "input_tokens"),
                        token_count_at(usage, "output_tokens")};
      response.model = string_at(*json, "model");
      response.raw = body;
      return response;
    } catch (const Json::exception& e) {
      return fail(std::string("malformed response from the server: ") + e.what());
    }
  }

  std::unique_ptr<StreamAssembler> assembler(TextSink on_text) const override {
    return make_anthropic_assembler(std::move(on_text));
  }

  std::string error_message(const std::string& body) const override {
    Json json = parse_json_or_discarded(body);
    return json.is_object() ? anthropic_error(json) : std::string();
  }

  const std::string& model() const override { return endpoint_.model; }

 private:
  ApiEndpoint endpoint_;
};

}  // namespace

std::unique_ptr<ApiAdapter> make_anthropic_adapter(ApiEndpoint endpoint) {
  return std::make_unique<AnthropicAdapter>(std::move(endpoint));
}

}  // namespace kopt::llm
