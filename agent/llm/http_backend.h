// A backend that speaks an HTTP API: an adapter for the format, a transport for the bytes,
// retries around them, and one clear line for every way an exchange can fail.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "agent/llm/api_adapter.h"
#include "agent/llm/backend.h"
#include "agent/llm/retry.h"

namespace kopt::llm {

/// Everything an HTTP backend needs besides its adapter.
struct HttpBackendConfig {
  std::string name;                   ///< "openai:gpt-4o-mini"
  std::string key_variable;           ///< Named in messages about keys ("OPENAI_API_KEY").
  std::shared_ptr<const ApiKey> key;  ///< Removed from every message; may be null.
  bool native_tools = true;
  RetryPolicy retry;
  HttpTimeouts timeouts;
  std::shared_ptr<HttpTransport> transport;  ///< Null: libcurl.
  std::shared_ptr<Sleeper> sleeper;          ///< Null: really sleep.
  std::function<double()> uniform01;         ///< Jitter source; empty: random.
};

/// OpenAI-compatible and Anthropic backends (and the local server, through the former).
class HttpChatBackend : public LlmBackend {
 public:
  HttpChatBackend(HttpBackendConfig config, std::unique_ptr<ApiAdapter> adapter);

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override;
  using LlmBackend::chat;
  std::string name() const override { return config_.name; }
  bool native_tools() const override { return config_.native_tools; }

 private:
  Result<ChatResponse> exchange_whole(const HttpRequest& http, const HttpTimeouts& limits,
                                      const ChatOptions& options, int& attempts);
  Result<ChatResponse> exchange_streamed(const HttpRequest& http, const HttpTimeouts& limits,
                                         const ChatOptions& options, int& attempts);
  Error failure(const HttpResponse& response, const HttpRequest& http, int attempts) const;
  std::string redact(std::string text) const;

  HttpBackendConfig config_;
  std::unique_ptr<ApiAdapter> adapter_;
};

/// One line for a failed exchange: "bad key (HTTP 401 from URL; check OPENAI_API_KEY): ...",
/// "unknown model 'x' or wrong endpoint (HTTP 404 from URL): ...", "cannot reach URL: ...".
std::string describe_http_failure(const HttpResponse& response, const std::string& url,
                                  const std::string& model, const std::string& server_message,
                                  const std::string& key_variable, bool has_key, int attempts);

}  // namespace kopt::llm
