#include "agent/llm/guarded_backend.h"

#include <algorithm>
#include <string>

#include "agent/llm/secrets.h"

namespace kopt::llm {

namespace {

constexpr size_t kMinTextCap = 64 << 10;

// Cuts at a UTF-8 character boundary at or below `cap`; true when something was cut.
bool cut(std::string& text, size_t cap) {
  if (text.size() <= cap) return false;
  size_t end = cap;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return true;
}

class GuardedBackend : public LlmBackend {
 public:
  explicit GuardedBackend(std::unique_ptr<LlmBackend> inner) : inner_(std::move(inner)) {}

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override {
    auto answer = inner_->chat(request, options);
    if (!answer) return Error{redact_secrets(answer.error().message), answer.error().permanent};
    return guard_response(std::move(*answer), request.max_tokens);
  }
  using LlmBackend::chat;
  std::string name() const override { return redact_secrets(inner_->name()); }
  bool native_tools() const override { return inner_->native_tools(); }
  Status prepare() override {
    auto ready = inner_->prepare();
    if (!ready) return Error{redact_secrets(ready.error().message), ready.error().permanent};
    return ready;
  }

 private:
  std::unique_ptr<LlmBackend> inner_;
};

}  // namespace

size_t answer_text_cap(int max_tokens) {
  return std::max(kMinTextCap, static_cast<size_t>(std::max(max_tokens, 0)) * 16);
}

size_t answer_wire_cap(int max_tokens) {
  return (1 << 20) + answer_text_cap(max_tokens) * 32;
}

ChatResponse guard_response(ChatResponse response, int max_tokens) {
  const size_t cap = answer_text_cap(max_tokens);
  bool was_cut = cut(response.text, cap);
  for (auto& call : response.tool_calls) {
    call.name = redact_secrets(call.name);
    call.arguments = redact_secrets(call.arguments);
    if (cut(call.arguments, cap)) {
      was_cut = true;
      call.arguments_error = "arguments longer than " + std::to_string(cap) + " bytes";
    }
  }
  response.text = redact_secrets(std::move(response.text));
  response.finish_detail = redact_secrets(std::move(response.finish_detail));
  response.model = redact_secrets(std::move(response.model));
  if (cut(response.raw, 4 * cap)) response.raw += " [cut by kopt]";
  response.raw = redact_secrets(std::move(response.raw));
  if (was_cut) {
    response.finish_reason = FinishReason::length;
    response.finish_detail = "cut by kopt at " + std::to_string(cap) +
                             " bytes, more than max_tokens " + std::to_string(max_tokens) +
                             " can produce";
  }
  return response;
}

std::unique_ptr<LlmBackend> guarded(std::unique_ptr<LlmBackend> inner) {
  return std::make_unique<GuardedBackend>(std::move(inner));
}

}  // namespace kopt::llm
