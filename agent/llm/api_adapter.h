// One adapter per API format: it turns a ChatRequest into that API's HTTP request and the
// API's answer (a JSON body, or a stream of events) back into a ChatResponse. Adapters do no
// I/O; HttpChatBackend drives them over a transport.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "agent/llm/chat.h"
#include "agent/llm/http_transport.h"
#include "agent/llm/secrets.h"
#include "agent/llm/sse.h"
#include "util/result.h"

namespace kopt::llm {

/// Receives text as a streamed answer arrives.
using TextSink = std::function<void(std::string_view delta)>;

/// Reassembles a streamed answer from its events.
class StreamAssembler {
 public:
  virtual ~StreamAssembler() = default;
  /// Takes one event; an Error when it is malformed or reports a failure.
  virtual Status add(const SseEvent& event) = 0;
  /// The whole answer after the last event; an Error when the stream ended early.
  virtual Result<ChatResponse> finish() = 0;
  /// Marks an answer kopt cut short (it grew beyond its cap) as ended: finish() then returns
  /// what came.
  virtual void cut() = 0;
};

/// Where an API lives and which model to ask.
struct ApiEndpoint {
  std::string base_url;  ///< Without a trailing slash.
  std::string model;
  std::shared_ptr<const ApiKey> api_key;  ///< Null for servers that need none.
};

/// Translation between kopt's chat types and one API format.
class ApiAdapter {
 public:
  virtual ~ApiAdapter() = default;
  /// The HTTP request for a chat call (with the key in its headers).
  virtual HttpRequest build(const ChatRequest& request, bool stream) const = 0;
  /// Reads a complete (non-streamed) 2xx body; malformed bodies are Errors.
  virtual Result<ChatResponse> parse(const std::string& body) const = 0;
  /// A fresh assembler for one streamed answer.
  virtual std::unique_ptr<StreamAssembler> assembler(TextSink on_text) const = 0;
  /// The message inside an error body ({"error":{"message":...}} and the like), or "".
  virtual std::string error_message(const std::string& body) const = 0;
  /// The model asked for.
  virtual const std::string& model() const = 0;
};

/// The OpenAI chat completions format (also vLLM, Ollama, llama.cpp servers).
std::unique_ptr<ApiAdapter> make_openai_adapter(ApiEndpoint endpoint);
/// The Anthropic Messages format.
std::unique_ptr<ApiAdapter> make_anthropic_adapter(ApiEndpoint endpoint);

}  // namespace kopt::llm
