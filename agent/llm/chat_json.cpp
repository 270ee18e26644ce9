#include "agent/llm/chat_json.h"

#include <nlohmann/json.hpp>

#include "agent/llm/json_read.h"
#include "util/hash.h"

namespace kopt::llm {

namespace {

// Embeds JSON text as JSON when it parses, else as a string.
Json embed(const std::string& text) {
  Json parsed = parse_json_or_discarded(text);
  return parsed.is_discarded() ? Json(text) : parsed;
}

Json call_to_json(const ToolCall& call) {
  Json json = {{"id", call.id}, {"name", call.name}};
  if (call.arguments_error.empty()) {
    json["arguments"] = embed(call.arguments);
  } else {
    json["arguments"] = call.arguments;
    json["arguments_error"] = call.arguments_error;
  }
  return json;
}

Json message_to_json(const Message& message) {
  Json json = {{"role", to_string(message.role)}, {"content", message.content}};
  if (!message.tool_calls.empty()) {
    Json calls = Json::array();
    for (const auto& call : message.tool_calls) calls.push_back(call_to_json(call));
    json["tool_calls"] = std::move(calls);
  }
  if (!message.tool_call_id.empty()) json["tool_call_id"] = message.tool_call_id;
  if (!message.name.empty()) json["name"] = message.name;
  return json;
}

// Reads an optional string member; a member of another type is an error naming it.
Status read_string(const Json& json, const char* key, std::string& out, const char* where) {
  const Json* value = member(json, key);
  if (!value || value->is_null()) return {};
  if (!value->is_string())
    return fail(std::string(where) + " field '" + key + "' must be a string");
  out = value->get<std::string>();
  return {};
}

Result<ToolCall> call_from_json(const Json& json) {
  if (!json.is_object()) return fail("tool call must be an object");
  ToolCall call;
  if (auto s = read_string(json, "id", call.id, "tool call"); !s) return s.error();
  if (auto s = read_string(json, "name", call.name, "tool call"); !s) return s.error();
  if (call.name.empty()) return fail("tool call has no name");
  const Json* arguments = member(json, "arguments");
  if (!arguments || arguments->is_null()) return call;
  if (arguments->is_string()) {
    ToolCall checked = make_tool_call(call.id, call.name, arguments->get<std::string>());
    if (auto error = string_at(json, "arguments_error"); !error.empty()) {
      checked.arguments = arguments->get<std::string>();
      checked.arguments_error = error;
    }
    return checked;
  }
  if (!arguments->is_object())
    return fail("tool call '" + call.name + "' arguments must be an object");
  call.arguments = dump_json(*arguments);
  return call;
}

Result<std::vector<ToolCall>> calls_from_json(const Json& json) {
  std::vector<ToolCall> calls;
  const Json* list = member(json, "tool_calls");
  if (!list || list->is_null()) return calls;
  if (!list->is_array()) return fail("field 'tool_calls' must be an array");
  for (const auto& item : *list) {
    auto call = call_from_json(item);
    if (!call) return call.error();
    calls.push_back(std::move(*call));
  }
  return calls;
}

Result<Message> message_from_json(const Json& json, size_t index) {
  const std::string where = "message " + std::to_string(index);
  if (!json.is_object()) return fail(where + " must be an object");
  Message message;
  const std::string role = string_at(json, "role");
  if (role == "user")
    message.role = Role::user;
  else if (role == "assistant")
    message.role = Role::assistant;
  else if (role == "tool")
    message.role = Role::tool;
  else
    return fail(where + " has unknown role '" + role + "'");
  if (auto s = read_string(json, "content", message.content, where.c_str()); !s) return s.error();
  if (auto s = read_string(json, "tool_call_id", message.tool_call_id, where.c_str()); !s)
    return s.error();
  if (auto s = read_string(json, "name", message.name, where.c_str()); !s) return s.error();
  auto calls = calls_from_json(json);
  if (!calls) return fail(where + ": " + calls.error().message);
  message.tool_calls = std::move(*calls);
  return message;
}

Result<ToolSchema> tool_from_json(const Json& json) {
  if (!json.is_object() || string_at(json, "name").empty()) return fail("tool needs a name");
  ToolSchema tool;
  tool.name = string_at(json, "name");
  tool.description = string_at(json, "description");
  if (const Json* parameters = member(json, "parameters"); parameters && parameters->is_object())
    tool.parameters = dump_json(*parameters);
  return tool;
}

Json usage_to_json(const Usage& usage) {
  Json json = {{"input_tokens", usage.input_tokens}, {"output_tokens", usage.output_tokens}};
  if (usage.estimated) json["estimated"] = true;  // Written only when set: older records stay.
  return json;
}

}  // namespace

Json to_json(const ChatRequest& request) {
  Json messages = Json::array();
  for (const auto& message : request.messages) messages.push_back(message_to_json(message));
  Json tools = Json::array();
  for (const auto& tool : request.tools) {
    tools.push_back({{"name", tool.name},
                     {"description", tool.description},
                     {"parameters", embed(tool.parameters)}});
  }
  Json json = {{"system", request.system},
               {"messages", messages},
               {"tools", tools},
               {"tool_choice", request.tool_choice},
               {"max_tokens", request.max_tokens},
               {"stop", request.stop}};
  if (request.temperature) json["temperature"] = *request.temperature;
  if (request.seed) json["seed"] = *request.seed;
  return json;
}

Result<ChatRequest> request_from_json(const Json& json) {
  if (!json.is_object()) return fail("request must be a JSON object");
  try {
    ChatRequest request;
    if (auto s = read_string(json, "system", request.system, "request"); !s) return s.error();
    const Json& messages = array_at(json, "messages");
    for (size_t i = 0; i < messages.size(); ++i) {
      auto message = message_from_json(messages[i], i + 1);
      if (!message) return message.error();
      request.messages.push_back(std::move(*message));
    }
    for (const auto& item : array_at(json, "tools")) {
      auto tool = tool_from_json(item);
      if (!tool) return tool.error();
      request.tools.push_back(std::move(*tool));
    }
    if (const auto choice = string_at(json, "tool_choice"); !choice.empty())
      request.tool_choice = choice;
    if (const Json* t = member(json, "temperature"); t && t->is_number())
      request.temperature = t->get<double>();
    request.max_tokens = static_cast<int>(int_at(json, "max_tokens", request.max_tokens));
    if (const Json* seed = member(json, "seed"); seed && seed->is_number_integer())
      request.seed = seed->get<int64_t>();
    for (const auto& stop : array_at(json, "stop"))
      if (stop.is_string()) request.stop.push_back(stop.get<std::string>());
    return request;
  } catch (const Json::exception& e) {
    return fail(std::string("request has a malformed field: ") + e.what());
  }
}

Json to_json(const ChatResponse& response) {
  Json calls = Json::array();
  for (const auto& call : response.tool_calls) calls.push_back(call_to_json(call));
  return {{"text", response.text},
          {"tool_calls", calls},
          {"finish_reason", to_string(response.finish_reason)},
          {"finish_detail", response.finish_detail},
          {"usage", usage_to_json(response.usage)},
          {"model", response.model},
          {"latency_s", response.latency_seconds},
          {"attempts", response.attempts},
          {"raw", response.raw.empty() ? Json(nullptr) : embed(response.raw)}};
}

Result<ChatResponse> response_from_json(const Json& json) {
  if (!json.is_object()) return fail("response must be a JSON object");
  if (!member(json, "text") && !member(json, "tool_calls"))
    return fail("response has neither 'text' nor 'tool_calls'");
  try {
    ChatResponse response;
    if (auto s = read_string(json, "text", response.text, "response"); !s) return s.error();
    auto calls = calls_from_json(json);
    if (!calls) return fail("response: " + calls.error().message);
    response.tool_calls = std::move(*calls);
    const std::string reason = string_at(json, "finish_reason");
    response.finish_reason =
        reason.empty()
            ? (response.tool_calls.empty() ? FinishReason::stop : FinishReason::tool_calls)
            : finish_reason_from_string(reason);
    response.finish_detail = string_at(json, "finish_detail");
    const Json& usage = object_at(json, "usage");
    response.usage.input_tokens = token_count_at(usage, "input_tokens");
    response.usage.output_tokens = token_count_at(usage, "output_tokens");
    if (const Json* estimated = member(usage, "estimated"); estimated && estimated->is_boolean())
      response.usage.estimated = estimated->get<bool>();
    response.model = string_at(json, "model");
    if (const Json* latency = member(json, "latency_s"); latency && latency->is_number())
      response.latency_seconds = latency->get<double>();
    response.attempts = static_cast<int>(int_at(json, "attempts", 1));
    if (const Json* raw = member(json, "raw"); raw && !raw->is_null())
      response.raw = raw->is_string() ? raw->get<std::string>() : dump_json(*raw);
    return response;
  } catch (const Json::exception& e) {
    return fail(std::string("response has a malformed field: ") + e.what());
  }
}

std::string canonical_request(const ChatRequest& request) {
  return dump_json(to_json(request));
}

std::string request_hash(const ChatRequest& request) {
  Hasher hasher;
  hasher.add("kopt-chat-request/1").add(canonical_request(request));
  return hasher.hex();
}

Json model_call_event(int64_t seq, const std::string& role, const ChatRequest& request,
                      const ChatResponse& response) {
  return {{"type", "model_call"},
          {"seq", seq},
          {"role", role},
          {"request_hash", request_hash(request)},
          {"request", to_json(request)},
          {"response", to_json(response)}};
}

ToolCall make_tool_call(std::string id, std::string name, const std::string& raw_arguments) {
  ToolCall call{std::move(id), std::move(name), raw_arguments, ""};
  if (raw_arguments.find_first_not_of(" \t\r\n") == std::string::npos) {
    call.arguments = "{}";
    return call;
  }
  Json parsed = parse_json_or_discarded(raw_arguments);
  if (parsed.is_discarded()) {
    call.arguments_error = "arguments are not valid JSON";
  } else if (!parsed.is_object()) {
    call.arguments_error = "arguments are not a JSON object";
  } else {
    call.arguments = dump_json(parsed);
  }
  return call;
}

Result<Json> parse_arguments(const ToolCall& call) {
  if (!call.arguments_error.empty())
    return fail("tool call '" + call.name + "': " + call.arguments_error);
  return parse_json(call.arguments, "arguments of tool call '" + call.name + "'");
}

}  // namespace kopt::llm
