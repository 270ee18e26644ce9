#include "agent/llm/http_backend.h"

#include <fmt/format.h>

#include <chrono>

#include "agent/llm/guarded_backend.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

using Clock = std::chrono::steady_clock;

std::string after(int attempts) {
  return attempts > 1 ? fmt::format(" after {} attempts", attempts) : "";
}

std::string transport_failure(const HttpResponse& response, const std::string& url, int attempts) {
  const std::string what =
      response.error_message + (attempts > 1 ? " (" + after(attempts).substr(1) + ")" : "");
  switch (response.error) {
    case TransportError::connect:
      return fmt::format("cannot reach {}: {}", url, what);
    case TransportError::cut_off:
      return fmt::format("the answer from {} was cut off: {}", url, what);
    default:
      return fmt::format("{} (from {})", what, url);
  }
}

}  // namespace

std::string describe_http_failure(const HttpResponse& response, const std::string& url,
                                  const std::string& model, const std::string& server_message,
                                  const std::string& key_variable, bool has_key, int attempts) {
  if (response.error != TransportError::none) return transport_failure(response, url, attempts);
  const long status = response.status;
  const std::string detail =
      ": " + one_line_excerpt(server_message.empty() ? response.body : server_message, 300);
  if (status == 401 || status == 403) {
    const std::string advice = has_key ? "check " + key_variable : key_variable + " is not set";
    return fmt::format("bad key: {} refused it (HTTP {}; {}){}", url, status, advice, detail);
  }
  if (status == 404)
    return fmt::format("unknown model '{}' or wrong endpoint (HTTP 404 from {}){}", model, url,
                       detail);
  if (status == 429) {
    const std::string wait =
        response.header("retry-after").empty()
            ? ""
            : "; the server asks to wait " + response.header("retry-after") + " s";
    return fmt::format("rate limited (HTTP 429 from {}{}{}){}", url, after(attempts), wait, detail);
  }
  if (status >= 500)
    return fmt::format("server error (HTTP {} from {}{}){}", status, url, after(attempts), detail);
  return fmt::format("request refused (HTTP {} from {}){}", status, url, detail);
}

HttpChatBackend::HttpChatBackend(HttpBackendConfig config, std::unique_ptr<ApiAdapter> adapter)
    : config_(std::move(config)), adapter_(std::move(adapter)) {
  if (!config_.transport) config_.transport = std::make_shared<CurlTransport>();
  if (!config_.sleeper) config_.sleeper = real_sleeper();
}

Result<ChatResponse> HttpChatBackend::chat(const ChatRequest& request, const ChatOptions& options) {
  const auto start = Clock::now();
  const HttpRequest http = adapter_->build(request, options.stream);
  int attempts = 0;
  HttpTimeouts limits = config_.timeouts;
  limits.max_body = answer_wire_cap(request.max_tokens);
  auto result = options.stream ? exchange_streamed(http, limits, options, attempts)
                               : exchange_whole(http, limits, options, attempts);
  if (!result) return Error{redact(result.error().message), result.error().permanent};
  result->latency_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result->attempts = attempts;
  if (result->model.empty()) result->model = adapter_->model();
  return result;
}

Result<ChatResponse> HttpChatBackend::exchange_whole(const HttpRequest& http,
                                                     const HttpTimeouts& limits,
                                                     const ChatOptions& options, int& attempts) {
  RetryingSender sender(*config_.transport, config_.retry, *config_.sleeper, config_.uniform01);
  const HttpResponse response = sender.send(http, limits, {}, attempts);
  if (!response.ok()) return failure(response, http, attempts);
  auto parsed = adapter_->parse(response.body);
  if (parsed && options.on_text && !parsed->text.empty()) options.on_text(parsed->text);
  return parsed;
}

Result<ChatResponse> HttpChatBackend::exchange_streamed(const HttpRequest& http,
                                                        const HttpTimeouts& limits,
                                                        const ChatOptions& options, int& attempts) {
  SseParser parser;
  auto assembler = adapter_->assembler(options.on_text);
  Status stream_status;
  const BodySink sink = [&](std::string_view chunk) {
    for (const auto& event : parser.feed(chunk)) {
      stream_status = assembler->add(event);
      if (!stream_status) return false;
    }
    if (!parser.error().empty()) stream_status = fail(parser.error());
    return stream_status.ok();
  };
  RetryingSender sender(*config_.transport, config_.retry, *config_.sleeper, config_.uniform01);
  const HttpResponse response = sender.send(http, limits, sink, attempts);
  if (!stream_status) return stream_status.error();
  const bool cut = response.error == TransportError::too_large && response.status / 100 == 2;
  if (!response.ok() && !cut) return failure(response, http, attempts);
  if (response.header("content-type").find("application/json") != std::string::npos) {
    auto parsed = adapter_->parse(response.body);  // The server chose not to stream.
    if (parsed && options.on_text && !parsed->text.empty()) options.on_text(parsed->text);
    return parsed;
  }
  if (cut)
    assembler->cut();
  else
    for (const auto& event : parser.finish())
      if (auto status = assembler->add(event); !status) return status.error();
  auto answer = assembler->finish();
  if (answer && cut) {  // An endless stream: keep what came, and say where it was cut.
    answer->finish_reason = FinishReason::length;
    answer->finish_detail = "cut by kopt: " + response.error_message;
  }
  return answer;
}

Error HttpChatBackend::failure(const HttpResponse& response, const HttpRequest& http,
                               int attempts) const {
  Error error = fail(describe_http_failure(response, http.url, adapter_->model(),
                                           adapter_->error_message(response.body),
                                           config_.key_variable, config_.key != nullptr, attempts));
  error.permanent = response.error == TransportError::none && response.status >= 400 &&
                    response.status < 500 && !is_transient(response);
  return error;
}

std::string HttpChatBackend::redact(std::string text) const {
  if (config_.key) text = config_.key->redact(std::move(text));
  return redact_tokens(std::move(text));
}

}  // namespace kopt::llm
