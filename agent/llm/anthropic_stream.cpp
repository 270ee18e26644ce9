#include "agent/llm/anthropic_stream.h"

#include <map>
#include <nlohmann/json.hpp>

#include "agent/llm/chat_json.h"
#include "agent/llm/json_read.h"

namespace kopt::llm {

namespace {

// A content block being assembled from deltas.
struct PartialBlock {
  std::string type;
  std::string text;
  std::string id;
  std::string name;
  std::string input;  ///< Concatenated partial_json of a tool_use block.
};

class AnthropicAssembler : public StreamAssembler {
 public:
  explicit AnthropicAssembler(TextSink on_text) : on_text_(std::move(on_text)) {}

  Status add(const SseEvent& event) override {
    Json data = parse_json_or_discarded(event.data);
    if (data.is_discarded() || !data.is_object())
      return fail("malformed stream event from the server: " + event.data.substr(0, 120));
    events_.push_back(data);
    const std::string type = string_at(data, "type");
    if (type == "error")
      return fail("the server reported an error mid-stream: " + anthropic_error(data));
    try {
      take(type, data);
    } catch (const Json::exception& e) {
      return fail(std::string("malformed stream event from the server: ") + e.what());
    }
    return {};
  }

  void cut() override { stopped_ = true; }

  Result<ChatResponse> finish() override {
    if (!stopped_)
      return fail("the stream ended before the answer was complete (no message_stop after " +
                  std::to_string(events_.size()) + " events)");
    for (auto& [index, block] : blocks_) {
      if (block.type == "text") response_.text += block.text;
      if (block.type == "tool_use")
        response_.tool_calls.push_back(make_tool_call(block.id, block.name, block.input));
    }
    response_.finish_reason = anthropic_finish_reason(response_.finish_detail);
    response_.raw = dump_json(events_);
    return response_;
  }

 private:
  void take(const std::string& type, const Json& data) {
    if (type == "message_start") {
      const Json& message = object_at(data, "message");
      response_.model = string_at(message, "model");
      response_.usage.input_tokens = token_count_at(object_at(message, "usage"), "input_tokens");
    } else if (type == "content_block_start") {
      const Json& block = object_at(data, "content_block");
      PartialBlock& partial = blocks_[int_at(data, "index")];
      partial = {string_at(block, "type"), string_at(block, "text"), string_at(block, "id"),
                 string_at(block, "name"), ""};
      const Json& input = object_at(block, "input");
      if (!input.empty()) partial.input = dump_json(input);
    } else if (type == "content_block_delta") {
      take_delta(blocks_[int_at(data, "index")], object_at(data, "delta"));
    } else if (type == "message_delta") {
      if (auto reason = string_at(object_at(data, "delta"), "stop_reason"); !reason.empty())
        response_.finish_detail = reason;
      const Json& usage = object_at(data, "usage");
      response_.usage.output_tokens =
          token_count_at(usage, "output_tokens", response_.usage.output_tokens);
    } else if (type == "message_stop") {
      stopped_ = true;
    }
  }

  void take_delta(PartialBlock& block, const Json& delta) {
    const std::string type = string_at(delta, "type");
    if (type == "text_delta") {
      const std::string text = string_at(delta, "text");
      block.text += text;
      if (on_text_ && !text.empty()) on_text_(text);
    } else if (type == "input_json_delta") {
      block.input += string_at(delta, "partial_json");
    }
  }

  TextSink on_text_;
  ChatResponse response_;
  std::map<int64_t, PartialBlock> blocks_;
  Json events_ = Json::array();
  bool stopped_ = false;
};

}  // namespace

FinishReason anthropic_finish_reason(const std::string& stop_reason) {
  if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return FinishReason::stop;
  if (stop_reason == "max_tokens") return FinishReason::length;
  if (stop_reason == "tool_use") return FinishReason::tool_calls;
  if (stop_reason == "refusal") return FinishReason::content_filter;
  return FinishReason::other;
}

std::string anthropic_error(const Json& json) {
  const Json& error = object_at(json, "error");
  std::string message = string_at(error, "message");
  const std::string type = string_at(error, "type");
  if (!type.empty()) message = type + (message.empty() ? "" : ": " + message);
  return message;
}

std::unique_ptr<StreamAssembler> make_anthropic_assembler(TextSink on_text) {
  return std::make_unique<AnthropicAssembler>(std::move(on_text));
}

}  // namespace kopt::llm
