// The OpenAI chat completions format: POST {base}/chat/completions.
#include <nlohmann/json.hpp>

#include "agent/llm/api_adapter.h"
#include "agent/llm/chat_json.h"
#include "agent/llm/json_read.h"
#include "agent/llm/openai_stream.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

Json schema(const std::string& text) {
  Json parsed = parse_json_or_discarded(text);
  return parsed.is_object() ? parsed : Json{{"type", "object"}};
}

Json message_json(const Message& message) {
  if (message.role == Role::tool)
    return {{"role", "tool"}, {"tool_call_id", message.tool_call_id}, {"content", message.content}};
  Json json = {{"role", to_string(message.role)}, {"content", message.content}};
  if (message.tool_calls.empty()) return json;
  if (message.content.empty()) json["content"] = nullptr;
  Json calls = Json::array();
  for (const auto& call : message.tool_calls) {
    calls.push_back({{"id", call.id},
                     {"type", "function"},
                     {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
  }
  json["tool_calls"] = std::move(calls);
  return json;
}

Json openai_tool_choice(const std::string& choice) {
  if (choice == "auto" || choice == "none" || choice == "required") return choice;
  return {{"type", "function"}, {"function", {{"name", choice}}}};
}

// Reasoning models take max_completion_tokens and refuse max_tokens.
bool wants_completion_tokens(const std::string& model) {
  for (const char* prefix : {"o1", "o3", "o4", "gpt-5"})
    if (starts_with(model, prefix)) return true;
  return false;
}

std::vector<ToolCall> read_calls(const Json& list) {
  std::vector<ToolCall> calls;
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& function = object_at(list[i], "function");
    const Json* arguments = member(function, "arguments");
    std::string text = !arguments || arguments->is_null() ? ""
                       : arguments->is_string()           ? arguments->get<std::string>()
                                                          : dump_json(*arguments);
    std::string id = string_at(list[i], "id");
    if (id.empty()) id = "call_" + std::to_string(i);
    calls.push_back(make_tool_call(id, string_at(function, "name"), text));
  }
  return calls;
}

class OpenAiAdapter : public ApiAdapter {
 public:
  explicit OpenAiAdapter(ApiEndpoint endpoint) : endpoint_(std::move(endpoint)) {}

  HttpRequest build(const ChatRequest& request, bool stream) const override {
    Json body = {{"model", endpoint_.model}, {"messages", messages(request)}};
    if (!request.tools.empty()) {
      Json tools = Json::array();
      for (const auto& tool : request.tools) {
        tools.push_back({{"type", "function"},
                         {"function",
                          {{"name", tool.name},
                           {"description", tool.description},
                           {"parameters", schema(tool.parameters)}}}});
      }
      body["tools"] = std::move(tools);
      body["tool_choice"] = openai_tool_choice(request.tool_choice);
    }
    if (request.temperature) body["temperature"] = *request.temperature;
    body[wants_completion_tokens(endpoint_.model) ? "max_completion_tokens" : "max_tokens"] =
        request.max_tokens;
    if (request.seed) body["seed"] = *request.seed;
    if (!request.stop.empty()) body["stop"] = request.stop;
    if (stream) {
      body["stream"] = true;
      body["stream_options"] = {{"include_usage", true}};
    }
    HttpRequest http{"POST",
                     endpoint_.base_url + "/chat/completions",
                     {{"Content-Type", "application/json"}},
                     dump_json(body)};
    if (stream) http.headers.emplace_back("Accept", "text/event-stream");
    if (endpoint_.api_key)
      http.headers.emplace_back("Authorization", "Bearer " + endpoint_.api_key->reveal());
    return http;
  }

  Result<ChatResponse> parse(const std::string& body) const override {
    auto json = parse_json(body, "the server's response");
    if (!json) return json.error();
    try {
      if (member(*json, "error"))
        return fail("the server reported an error: " + error_message(body));
      const Json& choices = array_at(*json, "choices");
      if (choices.empty()) return fail("the server's response has no choices");
      const Json& message = object_at(choices[0], "message");
      ChatResponse response;
      if (const Json* content = member(message, "content"))
        response.text = openai_content(*content);
      response.tool_calls = read_calls(array_at(message, "tool_calls"));
      response.finish_detail = string_at(choices[0], "finish_reason");
      response.finish_reason =
          openai_finish_reason(response.finish_detail, !response.tool_calls.empty());
      response.usage = openai_usage(object_at(*json, "usage"));
      response.model = string_at(*json, "model");
      response.raw = body;
      return response;
    } catch (const Json::exception& e) {
      return fail(std::string("malformed response from the server: ") + e.what());
    }
  }

  std::unique_ptr<StreamAssembler> assembler(TextSink on_text) const override {
    return make_openai_assembler(std::move(on_text));
  }

  std::string error_message(const std::string& body) const override {
    Json json = parse_json_or_discarded(body);
    const Json* error = member(json, "error");
    if (error && error->is_string()) return error->get<std::string>();
    if (error) return string_at(*error, "message");
    return string_at(json, "message");
  }

  const std::string& model() const override { return endpoint_.model; }

 private:
  Json messages(const ChatRequest& request) const {
    Json list = Json::array();
    if (!request.system.empty()) list.push_back({{"role", "system"}, {"content", request.system}});
    for (const auto& message : request.messages) list.push_back(message_json(message));
    return list;
  }

  ApiEndpoint endpoint_;
};

}  // namespace

std::unique_ptr<ApiAdapter> make_openai_adapter(ApiEndpoint endpoint) {
  return std::make_unique<OpenAiAdapter>(std::move(endpoint));
}

}  // namespace kopt::llm
