// ChatRequest and ChatResponse as JSON, with stable field names: the form in which model calls
// are recorded in a run's events.jsonl, piped to exec: commands, and hashed for replay.
#pragma once

#include <cstdint>
#include <string>

#include "agent/llm/chat.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt::llm {

/// {"system","messages","tools","tool_choice","temperature"?,"max_tokens","seed"?,"stop"};
/// empty optional parts are left out, tool schemas and arguments are embedded as JSON.
Json to_json(const ChatRequest& request);
/// Reads what to_json wrote; a wrong shape is an Error naming the field.
Result<ChatRequest> request_from_json(const Json& json);

/// {"text","tool_calls","finish_reason","finish_detail","usage":{"input_tokens",
/// "output_tokens"},"model","latency_s","attempts","raw"}.
Json to_json(const ChatResponse& response);
/// Reads a response; only "text" or "tool_calls" is required, the rest defaults.
Result<ChatResponse> response_from_json(const Json& json);

/// The canonical text of a request: everything the model sees, keys sorted, compact.
std::string canonical_request(const ChatRequest& request);
/// A 32-hex-digit digest of canonical_request (versioned, so a format change changes it).
std::string request_hash(const ChatRequest& request);

/// The events.jsonl record of one model call: {"type":"model_call","seq","role",
/// "request_hash","request","response"}.
Json model_call_event(int64_t seq, const std::string& role, const ChatRequest& request,
                      const ChatResponse& response);

/// A tool call whose raw argument text from a model is checked and normalized: a JSON object
/// becomes compact JSON; anything else is kept as is, with arguments_error saying why.
ToolCall make_tool_call(std::string id, std::string name, const std::string& raw_arguments);

/// The arguments of a call as JSON; an Error when the model's arguments were not an object.
Result<Json> parse_arguments(const ToolCall& call);

}  // namespace kopt::llm
