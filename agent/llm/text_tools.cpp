#include "agent/llm/text_tools.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "agent/llm/chat_json.h"
#include "agent/llm/json_read.h"
#include "util/hash.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

// A fenced block and the bytes [begin, end) it spans in the answer, fences included.
struct Fence {
  CodeBlock block;
  size_t begin = 0;
  size_t end = 0;
};

// The fence a line opens or closes: its character and length (0 when it is no fence).
std::pair<char, size_t> fence_of(std::string_view line) {
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string_view::npos || indent > 3) return {0, 0};
  line.remove_prefix(indent);
  const char c = line.empty() ? 0 : line.front();
  if (c != '`' && c != '~') return {0, 0};
  const size_t run = line.find_first_not_of(c);
  const size_t length = run == std::string_view::npos ? line.size() : run;
  return length >= 3 ? std::pair{c, length} : std::pair{char(0), size_t(0)};
}

std::vector<Fence> scan_fences(const std::string& text) {
  std::vector<Fence> fences;
  std::pair<char, size_t> open{0, 0};
  for (size_t at = 0; at < text.size();) {
    size_t eol = text.find('\n', at);
    const size_t next = eol == std::string::npos ? text.size() : eol + 1;
    const std::string_view line(text.data() + at,
                                (eol == std::string::npos ? text.size() : eol) - at);
    const auto fence = fence_of(line);
    if (open.first == 0 && fence.first != 0) {
      open = fence;
      const std::string info = trim(line.substr(line.find(fence.first) + fence.second));
      fences.push_back(
          {{to_lower(info.substr(0, info.find_first_of(" \t{"))), "", false}, at, next});
    } else if (open.first != 0 && fence.first == open.first && fence.second >= open.second &&
               trim(line).size() == fence.second) {
      fences.back().block.closed = true;
      fences.back().end = next;
      open = {0, 0};
    } else if (open.first != 0) {
      fences.back().block.code += std::string(line) + "\n";
      fences.back().end = next;
    }
    at = next;
  }
  return fences;
}

std::string call_id(const std::string& text, size_t index) {
  return "call_" + hash_hex(text).substr(0, 8) + "_" + std::to_string(index + 1);
}

// Reads {"name":..,"arguments":{..}} (or "parameters"); nullopt when it is not a call.
std::optional<ToolCall> read_call(const std::string& body, const std::string& id) {
  Json json = parse_json_or_discarded(body);
  if (!json.is_object() || string_at(json, "name").empty()) return std::nullopt;
  const Json* arguments = member(json, "arguments");
  if (!arguments) arguments = member(json, "parameters");
  const std::string text = !arguments               ? "{}"
                           : arguments->is_string() ? arguments->get<std::string>()
                                                    : dump_json(*arguments);
  return make_tool_call(id, string_at(json, "name"), text);
}

// Takes <tool_call>...</tool_call> spans out of `prose`, adding the calls they hold.
void take_tagged_calls(std::string& prose, const std::string& answer,
                       std::vector<ToolCall>& calls) {
  const std::string open = "<tool_call>", close = "</tool_call>";
  for (size_t at = prose.find(open); at != std::string::npos; at = prose.find(open, at)) {
    const size_t end = prose.find(close, at);
    if (end == std::string::npos) break;
    const std::string body = prose.substr(at + open.size(), end - at - open.size());
    if (auto call = read_call(trim(body), call_id(answer, calls.size()))) {
      calls.push_back(std::move(*call));
      prose.erase(at, end + close.size() - at);
    } else {
      at = end;
    }
  }
}

}  // namespace

std::vector<CodeBlock> find_code_blocks(const std::string& text) {
  std::vector<CodeBlock> blocks;
  for (auto& fence : scan_fences(text)) blocks.push_back(std::move(fence.block));
  return blocks;
}

Result<std::string> extract_code(const std::string& text,
                                 const std::vector<std::string>& languages) {
  const CodeBlock* in_language = nullptr;
  const CodeBlock* unlabelled = nullptr;
  bool cut_off = false;
  const auto blocks = find_code_blocks(text);
  for (const auto& block : blocks) {
    if (!block.closed) {
      cut_off = true;
      continue;
    }
    const bool wanted =
        std::find(languages.begin(), languages.end(), block.language) != languages.end();
    const CodeBlock*& best = wanted ? in_language : unlabelled;
    if ((wanted || block.language.empty()) && (!best || block.code.size() > best->code.size()))
      best = &block;
  }
  if (in_language) return in_language->code;
  if (unlabelled) return unlabelled->code;
  if (cut_off) return fail("the answer's code block is not closed (was it cut off at max_tokens?)");
  return fail("the answer has no fenced code block (```" +
              (languages.empty() ? "" : languages.front()) + " ... ```)");
}

TextToolCalls parse_text_tool_calls(const std::string& text,
                                    const std::vector<std::string>& offered) {
  auto is_offered = [&](const std::optional<ToolCall>& call) {
    return call && std::find(offered.begin(), offered.end(), call->name) != offered.end();
  };
  TextToolCalls result;
  if (auto bare = read_call(trim(text), call_id(text, 0)); is_offered(bare)) {
    result.calls.push_back(std::move(*bare));
    return result;
  }
  size_t kept = 0;
  for (const auto& fence : scan_fences(text)) {
    const std::string& language = fence.block.language;
    if ((language != "tool_call" && language != "json") || !fence.block.closed) continue;
    auto call = read_call(fence.block.code, call_id(text, result.calls.size()));
    if (!call || (language == "json" && !is_offered(call))) continue;
    result.calls.push_back(std::move(*call));
    result.text += text.substr(kept, fence.begin - kept);
    kept = fence.end;
  }
  result.text += text.substr(kept);
  take_tagged_calls(result.text, text, result.calls);
  result.text = result.calls.empty() ? text : trim(result.text);
  return result;
}

std::string render_tool_call(const ToolCall& call) {
  Json arguments = parse_json_or_discarded(call.arguments);
  if (arguments.is_discarded()) arguments = call.arguments;
  return "```tool_call\n" + dump_json({{"name", call.name}, {"arguments", arguments}}) + "\n```";
}

std::string describe_tools(const std::vector<ToolSchema>& tools, const std::string& tool_choice) {
  if (tools.empty() || tool_choice == "none") return "";
  std::string text =
      "You can call tools. To call one, answer with a block like this, one block per call:\n"
      "```tool_call\n{\"name\": \"TOOL_NAME\", \"arguments\": {...}}\n```\n"
      "The results come back in the next message. ";
  if (tool_choice == "required")
    text += "You must call a tool in this answer. ";
  else if (tool_choice != "auto")
    text += "You must call the tool " + tool_choice + ". ";
  text += "The tools, with their arguments as JSON Schema:\n";
  for (const auto& tool : tools)
    text += "- " + tool.name + ": " + tool.description + "\n  arguments: " + tool.parameters + "\n";
  return text;
}

}  // namespace kopt::llm
