#include "agent/llm/chat.h"

namespace kopt::llm {

std::string to_string(Role role) {
  switch (role) {
    case Role::user:
      return "user";
    case Role::assistant:
      return "assistant";
    case Role::tool:
      return "tool";
  }
  return "user";
}

Message user_message(std::string content) {
  return Message{Role::user, std::move(content), {}, "", ""};
}

Message assistant_message(std::string content, std::vector<ToolCall> calls) {
  return Message{Role::assistant, std::move(content), std::move(calls), "", ""};
}

Message tool_message(const ToolCall& call, std::string content) {
  return Message{Role::tool, std::move(content), {}, call.id, call.name};
}

std::string to_string(FinishReason reason) {
  switch (reason) {
    case FinishReason::stop:
      return "stop";
    case FinishReason::length:
      return "length";
    case FinishReason::tool_calls:
      return "tool_calls";
    case FinishReason::content_filter:
      return "content_filter";
    case FinishReason::other:
      return "other";
  }
  return "other";
}

FinishReason finish_reason_from_string(const std::string& text) {
  for (auto reason : {FinishReason::stop, FinishReason::length, FinishReason::tool_calls,
                      FinishReason::content_filter}) {
    if (to_string(reason) == text) return reason;
  }
  return FinishReason::other;
}

Usage& Usage::operator+=(const Usage& other) {
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  estimated = estimated || other.estimated;
  return *this;
}

}  // namespace kopt::llm
