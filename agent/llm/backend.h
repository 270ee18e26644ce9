// The seam between kopt and a language model. Every backend answers a ChatRequest with a
// ChatResponse or an Error that says why (bad key, unknown model, unreachable, malformed reply,
// budget, unrecorded request, ...); none throws for an expected failure.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "agent/llm/chat.h"
#include "util/result.h"

namespace kopt::llm {

/// How one call is delivered; none of it changes what the model sees.
struct ChatOptions {
  /// Ask the server to stream (SSE), so a stalled generation is noticed while it runs.
  bool stream = false;
  /// Receives the answer's text as it arrives (all at once for backends that cannot stream).
  std::function<void(std::string_view delta)> on_text;
};

/// A language model behind some transport. One caller at a time: a backend is not meant to be
/// shared between threads without a lock.
class LlmBackend {
 public:
  virtual ~LlmBackend() = default;

  /// Answers one request; expected failures are values carrying their reason.
  virtual Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) = 0;
  /// Answers one request without streaming.
  Result<ChatResponse> chat(const ChatRequest& request) { return chat(request, ChatOptions{}); }

  /// The spec-like name of this backend: "openai:gpt-4o-mini", "replay:runs/x" (never a key).
  virtual std::string name() const = 0;
  /// True when tool schemas reach the model natively; false when they go through the text
  /// convention of text_tools.h.
  virtual bool native_tools() const = 0;
  /// Starts what the backend needs (a local server) or checks its inputs (a recording); chat()
  /// does this on first use. Idempotent.
  virtual Status prepare() { return {}; }
};

}  // namespace kopt::llm
