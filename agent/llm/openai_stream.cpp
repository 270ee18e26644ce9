#include "agent/llm/openai_stream.h"

#include <map>
#include <nlohmann/json.hpp>

#include "agent/llm/chat_json.h"
#include "agent/llm/json_read.h"

namespace kopt::llm {

namespace {

// A tool call being assembled from fragments.
struct PartialCall {
  std::string id;
  std::string name;
  std::string arguments;
};

class OpenAiAssembler : public StreamAssembler {
 public:
  explicit OpenAiAssembler(TextSink on_text) : on_text_(std::move(on_text)) {}

  Status add(const SseEvent& event) override {
    if (event.data == "[DONE]") {
      done_ = true;
      return {};
    }
    Json chunk = parse_json_or_discarded(event.data);
    if (chunk.is_discarded() || !chunk.is_object())
      return fail("malformed stream event from the server: " + event.data.substr(0, 120));
    events_.push_back(chunk);
    if (const Json* error = member(chunk, "error"))
      return fail("the server reported an error mid-stream: " +
                  (error->is_object() ? string_at(*error, "message") : dump_json(*error)));
    try {
      take(chunk);
    } catch (const Json::exception& e) {
      return fail(std::string("malformed stream event from the server: ") + e.what());
    }
    return {};
  }

  void cut() override { done_ = true; }

  Result<ChatResponse> finish() override {
    if (!done_ && response_.finish_detail.empty())
      return fail(
          "the stream ended before the answer was complete (no finish_reason and no "
          "[DONE] after " +
          std::to_string(events_.size()) + " events)");
    for (auto& [index, call] : calls_) {
      if (call.id.empty()) call.id = "call_" + std::to_string(index);
      response_.tool_calls.push_back(make_tool_call(call.id, call.name, call.arguments));
    }
    response_.finish_reason =
        openai_finish_reason(response_.finish_detail, !response_.tool_calls.empty());
    response_.raw = dump_json(events_);
    return response_;
  }

 private:
  void take(const Json& chunk) {
    if (auto model = string_at(chunk, "model"); !model.empty()) response_.model = model;
    if (const Json* usage = member(chunk, "usage"); usage && usage->is_object())
      response_.usage = openai_usage(*usage);
    const Json& choices = array_at(chunk, "choices");
    if (choices.empty()) return;
    const Json& delta = object_at(choices[0], "delta");
    if (const Json* content = member(delta, "content")) {
      const std::string text = openai_content(*content);
      response_.text += text;
      if (on_text_ && !text.empty()) on_text_(text);
    }
    const Json& fragments = array_at(delta, "tool_calls");
    for (size_t i = 0; i < fragments.size(); ++i) take_fragment(fragments[i], i);
    if (auto reason = string_at(choices[0], "finish_reason"); !reason.empty())
      response_.finish_detail = reason;
  }

  void take_fragment(const Json& fragment, size_t position) {
    PartialCall& call = calls_[int_at(fragment, "index", static_cast<int64_t>(position))];
    if (auto id = string_at(fragment, "id"); !id.empty()) call.id = id;
    const Json& function = object_at(fragment, "function");
    if (auto name = string_at(function, "name"); !name.empty() && call.name.empty())
      call.name = name;
    if (const Json* arguments = member(function, "arguments")) {
      call.arguments += arguments->is_string() ? arguments->get<std::string>()
                        : arguments->is_null() ? std::string()
                                               : dump_json(*arguments);
    }
  }

  TextSink on_text_;
  ChatResponse response_;
  std::map<int64_t, PartialCall> calls_;
  Json events_ = Json::array();
  bool done_ = false;
};

}  // namespace

FinishReason openai_finish_reason(const std::string& detail, bool has_tool_calls) {
  if (detail == "tool_calls" || detail == "function_call") return FinishReason::tool_calls;
  if (detail == "stop" || detail.empty())
    return has_tool_calls ? FinishReason::tool_calls : FinishReason::stop;
  if (detail == "length") return FinishReason::length;
  if (detail == "content_filter") return FinishReason::content_filter;
  return FinishReason::other;
}

Usage openai_usage(const Json& usage) {
  return {token_count_at(usage, "prompt_tokens"), token_count_at(usage, "completion_tokens")};
}

std::string openai_content(const Json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (content.is_array())
    for (const auto& part : content) text += string_at(part, "text");
  return text;
}

std::unique_ptr<StreamAssembler> make_openai_assembler(TextSink on_text) {
  return std::make_unique<OpenAiAssembler>(std::move(on_text));
}

}  // namespace kopt::llm
