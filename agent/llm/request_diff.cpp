#include "agent/llm/request_diff.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "agent/llm/chat_json.h"

namespace kopt::llm {

namespace {

constexpr size_t kBefore = 20;
constexpr size_t kAfter = 40;

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

size_t chars_before(const std::string& text, size_t byte) {
  size_t count = 0;
  for (size_t i = 0; i < byte && i < text.size(); ++i) count += is_continuation(text[i]) ? 0 : 1;
  return count;
}

// The text around `at`, widened to whole UTF-8 sequences, with line breaks escaped.
std::string excerpt(const std::string& text, size_t at) {
  size_t begin = at > kBefore ? at - kBefore : 0;
  size_t end = std::min(text.size(), at + kAfter);
  while (begin > 0 && is_continuation(text[begin])) --begin;
  while (end < text.size() && is_continuation(text[end])) ++end;
  std::string out = begin > 0 ? "..." : "";
  for (size_t i = begin; i < end; ++i) {
    if (text[i] == '\n')
      out += "\\n";
    else if (text[i] == '\t')
      out += "\\t";
    else
      out += text[i];
  }
  if (end < text.size()) out += "...";
  return out;
}

std::string calls_text(const std::vector<ToolCall>& calls) {
  std::string text;
  for (const auto& call : calls) text += call.id + " " + call.name + call.arguments + "\n";
  return text;
}

std::string tools_text(const ChatRequest& request) {
  return dump_json(to_json(request)["tools"]);
}

std::string message_difference(const Message& recorded, const Message& now, size_t index) {
  const std::string where = "message " + std::to_string(index) + " (" + to_string(now.role) + ")";
  if (recorded.role != now.role)
    return where + ": recorded role " + to_string(recorded.role) + " vs now " + to_string(now.role);
  if (recorded.content != now.content)
    return where + " " + describe_text_difference(recorded.content, now.content);
  if (recorded.tool_calls != now.tool_calls)
    return where + " tool calls " +
           describe_text_difference(calls_text(recorded.tool_calls), calls_text(now.tool_calls));
  if (recorded.tool_call_id != now.tool_call_id || recorded.name != now.name)
    return where + ": recorded result of " + recorded.name + " (" + recorded.tool_call_id +
           ") vs now " + now.name + " (" + now.tool_call_id + ")";
  return "";
}

std::string option_difference(const ChatRequest& recorded, const ChatRequest& now) {
  auto show = [](const auto& value) { return dump_json(Json(value)); };
  auto show_optional = [&](const auto& value) {
    return value ? show(*value) : std::string("none");
  };
  if (recorded.tool_choice != now.tool_choice)
    return "tool_choice: recorded " + recorded.tool_choice + " vs now " + now.tool_choice;
  if (recorded.temperature != now.temperature)
    return "temperature: recorded " + show_optional(recorded.temperature) + " vs now " +
           show_optional(now.temperature);
  if (recorded.max_tokens != now.max_tokens)
    return "max_tokens: recorded " + show(recorded.max_tokens) + " vs now " + show(now.max_tokens);
  if (recorded.seed != now.seed)
    return "seed: recorded " + show_optional(recorded.seed) + " vs now " + show_optional(now.seed);
  if (recorded.stop != now.stop)
    return "stop: recorded " + show(recorded.stop) + " vs now " + show(now.stop);
  return "";
}

}  // namespace

std::string describe_text_difference(const std::string& recorded, const std::string& now) {
  if (recorded == now) return "";
  auto mismatch = std::mismatch(recorded.begin(), recorded.end(), now.begin(), now.end());
  size_t at = static_cast<size_t>(mismatch.first - recorded.begin());
  auto inside = [&at](const std::string& text) {
    return at < text.size() && is_continuation(text[at]);
  };
  while (at > 0 && (inside(recorded) || inside(now))) --at;
  return "differs at character " + std::to_string(chars_before(now, at)) + ": recorded '" +
         excerpt(recorded, at) + "' vs now '" + excerpt(now, at) + "'";
}

std::string first_difference(const ChatRequest& recorded, const ChatRequest& now) {
  if (recorded.system != now.system)
    return "system prompt " + describe_text_difference(recorded.system, now.system);
  const size_t common = std::min(recorded.messages.size(), now.messages.size());
  for (size_t i = 0; i < common; ++i) {
    std::string difference = message_difference(recorded.messages[i], now.messages[i], i + 1);
    if (!difference.empty()) return difference;
  }
  if (recorded.messages.size() != now.messages.size())
    return "message count: recorded " + std::to_string(recorded.messages.size()) + " vs now " +
           std::to_string(now.messages.size());
  if (tools_text(recorded) != tools_text(now))
    return "tools " + describe_text_difference(tools_text(recorded), tools_text(now));
  return option_difference(recorded, now);
}

size_t similarity(const ChatRequest& a, const ChatRequest& b) {
  const std::string x = canonical_request(a);
  const std::string y = canonical_request(b);
  return static_cast<size_t>(std::mismatch(x.begin(), x.end(), y.begin(), y.end()).first -
                             x.begin());
}

}  // namespace kopt::llm
