// The HTTP layer under the API adapters: one exchange, with timeouts that tell a dead server
// from a slow generation. Failures come back inside HttpResponse, never as exceptions.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kopt::llm {

/// One HTTP request; header values may hold secrets, so describe() redacts them.
struct HttpRequest {
  std::string method = "POST";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  /// "POST URL" and the headers, with authorization-like values redacted.
  std::string describe() const;
};

/// How an exchange failed below HTTP.
enum class TransportError {
  none,
  connect,             ///< Could not connect, or the connection closed before any response.
  first_byte_timeout,  ///< No body byte within HttpTimeouts::first_byte.
  stall,               ///< The body stopped flowing for HttpTimeouts::stall.
  total_timeout,       ///< The whole exchange exceeded HttpTimeouts::total.
  cut_off,             ///< The connection ended in the middle of the body.
  aborted,             ///< The body sink asked to stop.
  too_large,           ///< The body grew beyond HttpTimeouts::max_body; what came is kept.
  other,
};

/// What came back: a status and body, or a transport error (then status may be 0).
struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  ///< Names in lower case.
  std::string body;                            ///< The whole body, also when streamed.
  TransportError error = TransportError::none;
  std::string error_message;
  size_t body_bytes = 0;

  /// True for a 2xx status without a transport error.
  bool ok() const { return error == TransportError::none && status >= 200 && status < 300; }
  /// The header's value, or "" (name in lower case).
  std::string header(const std::string& name) const;
};

/// Limits of one exchange. A generation that is not streamed sends nothing until it is done,
/// so only `first_byte` bounds it; once the body flows, silence longer than `stall` ends it, and
/// `total` ends a body that flows forever.
struct HttpTimeouts {
  std::chrono::milliseconds connect{10000};
  std::chrono::milliseconds first_byte{300000};
  std::chrono::milliseconds stall{60000};
  std::chrono::milliseconds total{0};  ///< 0: no limit.
  size_t max_body = 0;                 ///< Most body bytes kept; 0: no limit.
};

/// Receives body bytes of a 2xx response as they arrive; returning false aborts the exchange.
using BodySink = std::function<bool(std::string_view chunk)>;

/// The seam for HTTP: libcurl in kopt, fakes in tests.
class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  /// Performs one exchange; every failure is described in the result.
  virtual HttpResponse send(const HttpRequest& request, const HttpTimeouts& timeouts,
                            const BodySink& sink) = 0;
};

/// libcurl underneath; one connection per exchange, safe to use from several threads.
class CurlTransport : public HttpTransport {
 public:
  HttpResponse send(const HttpRequest& request, const HttpTimeouts& timeouts,
                    const BodySink& sink) override;
};

/// "connect", "stall", ... for messages and tests.
std::string to_string(TransportError error);

}  // namespace kopt::llm
