// The one interface between kopt and a language model: a chat request in, a chat response out.
// Every backend (hosted APIs, a local server, a recorded run, a command, an operator) speaks
// these types; adapters translate them to and from each provider's wire format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::llm {

/// Who wrote a message of the conversation (the system prompt is ChatRequest::system).
enum class Role { user, assistant, tool };

/// "user", "assistant" or "tool".
std::string to_string(Role role);

/// A tool the model asked to call. `arguments` is compact JSON text of an object when the model
/// wrote valid JSON; otherwise it holds the model's raw text and `arguments_error` says why.
struct ToolCall {
  std::string id;  ///< Provider-assigned id that the tool result refers back to.
  std::string name;
  std::string arguments = "{}";
  std::string arguments_error;  ///< Empty when `arguments` is a valid JSON object.

  bool operator==(const ToolCall&) const = default;
};

/// One turn of the conversation.
struct Message {
  Role role = Role::user;
  std::string content;
  std::vector<ToolCall> tool_calls;  ///< Assistant turns: the calls it made.
  std::string tool_call_id;          ///< Tool turns: the call this result answers.
  std::string name;                  ///< Tool turns: the tool's name.

  bool operator==(const Message&) const = default;
};

/// Builds a user message.
Message user_message(std::string content);
/// Builds an assistant message, optionally with the tool calls it made.
Message assistant_message(std::string content, std::vector<ToolCall> calls = {});
/// Builds a tool result message answering `call`.
Message tool_message(const ToolCall& call, std::string content);

/// A tool offered to the model; `parameters` is a JSON Schema object as compact JSON text.
struct ToolSchema {
  std::string name;
  std::string description;
  std::string parameters = R"({"type":"object","properties":{}})";

  bool operator==(const ToolSchema&) const = default;
};

/// Everything that decides what the model sees and how it samples.
struct ChatRequest {
  std::string system;
  std::vector<Message> messages;
  std::vector<ToolSchema> tools;
  std::string tool_choice = "auto";  ///< "auto", "none", "required" or a tool's name.
  std::optional<double> temperature;
  int max_tokens = 1024;
  std::optional<int64_t> seed;
  std::vector<std::string> stop;

  bool operator==(const ChatRequest&) const = default;
};

/// Why the model stopped.
enum class FinishReason { stop, length, tool_calls, content_filter, other };

/// "stop", "length", "tool_calls", "content_filter" or "other".
std::string to_string(FinishReason reason);
/// The inverse of to_string; unknown text maps to `other`.
FinishReason finish_reason_from_string(const std::string& text);

/// Tokens spent by one call or summed over several.
struct Usage {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  bool estimated = false;  ///< Counted by kopt (estimate_usage): the backend reported none.

  int64_t total() const { return input_tokens + output_tokens; }
  Usage& operator+=(const Usage& other);
  bool operator==(const Usage&) const = default;
};

/// What the model answered, and what it cost.
struct ChatResponse {
  std::string text;
  std::vector<ToolCall> tool_calls;
  FinishReason finish_reason = FinishReason::stop;
  std::string finish_detail;  ///< The provider's own word for the finish reason.
  Usage usage;
  std::string model;           ///< The model that answered, as the provider names it.
  double latency_seconds = 0;  ///< Wall time of the call, retries included.
  int attempts = 1;            ///< HTTP attempts it took (1 without retries).
  std::string raw;             ///< The provider's response as JSON text (streams: the events).
};

}  // namespace kopt::llm
