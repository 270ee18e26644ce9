// The text convention of text_tools.h wrapped around a backend without native tool calling.
#include "agent/llm/text_tools.h"

namespace kopt::llm {

namespace {

Message as_text(const Message& message) {
  if (message.role == Role::tool) {
    return user_message("Result of tool call " + message.name + " (" + message.tool_call_id +
                        "):\n" + message.content);
  }
  if (message.tool_calls.empty()) return message;
  std::string text = message.content;
  for (const auto& call : message.tool_calls)
    text += (text.empty() ? "" : "\n") + render_tool_call(call);
  return assistant_message(text);
}

class TextToolBackend : public LlmBackend {
 public:
  explicit TextToolBackend(std::unique_ptr<LlmBackend> inner) : inner_(std::move(inner)) {}

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override {
    auto response = inner_->chat(to_text_tools(request), options);
    if (!response || request.tools.empty() || request.tool_choice == "none") return response;
    std::vector<std::string> offered;
    for (const auto& tool : request.tools) offered.push_back(tool.name);
    TextToolCalls parsed = parse_text_tool_calls(response->text, offered);
    if (parsed.calls.empty()) return response;
    response->text = std::move(parsed.text);
    response->tool_calls = std::move(parsed.calls);
    if (response->finish_reason == FinishReason::stop)
      response->finish_reason = FinishReason::tool_calls;
    return response;
  }
  using LlmBackend::chat;

  std::string name() const override { return inner_->name(); }
  bool native_tools() const override { return false; }
  Status prepare() override { return inner_->prepare(); }

 private:
  std::unique_ptr<LlmBackend> inner_;
};

}  // namespace

ChatRequest to_text_tools(const ChatRequest& request) {
  ChatRequest rewritten = request;
  const std::string tools = describe_tools(request.tools, request.tool_choice);
  if (!tools.empty()) rewritten.system += (rewritten.system.empty() ? "" : "\n\n") + tools;
  rewritten.tools.clear();
  rewritten.tool_choice = "auto";
  rewritten.messages.clear();
  for (const auto& message : request.messages) rewritten.messages.push_back(as_text(message));
  return rewritten;
}

std::unique_ptr<LlmBackend> with_text_tools(std::unique_ptr<LlmBackend> inner) {
  return std::make_unique<TextToolBackend>(std::move(inner));
}

}  // namespace kopt::llm
