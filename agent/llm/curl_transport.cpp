#include <curl/curl.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "agent/llm/http_transport.h"
#include "agent/llm/secrets.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

using Clock = std::chrono::steady_clock;

// The state one exchange shares with libcurl's callbacks.
struct Exchange {
  CURL* easy = nullptr;
  const BodySink* sink = nullptr;
  HttpResponse* response = nullptr;
  Clock::time_point start = Clock::now();
  Clock::time_point last_body = start;
  bool sink_refused = false;
  size_t max_body = 0;
  bool too_large = false;
};

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& exchange = *static_cast<Exchange*>(user);
  const std::string_view line(data, size * count);
  if (starts_with(line, "HTTP/")) exchange.response->headers.clear();  // After 100 Continue.
  const size_t colon = line.find(':');
  if (colon != std::string_view::npos)
    exchange.response->headers[to_lower(std::string(line.substr(0, colon)))] =
        trim(line.substr(colon + 1));
  return size * count;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& exchange = *static_cast<Exchange*>(user);
  const size_t n = size * count;
  exchange.last_body = Clock::now();
  if (exchange.max_body > 0 && exchange.response->body_bytes + n > exchange.max_body) {
    exchange.too_large = true;
    return 0;
  }
  exchange.response->body_bytes += n;
  exchange.response->body.append(data, n);
  long status = 0;
  curl_easy_getinfo(exchange.easy, CURLINFO_RESPONSE_CODE, &status);
  const BodySink& sink = *exchange.sink;
  if (sink && status >= 200 && status < 300 && !sink(std::string_view(data, n))) {
    exchange.sink_refused = true;
    return 0;  // Anything but n makes libcurl stop with CURLE_WRITE_ERROR.
  }
  return n;
}

// Loopback never goes through a proxy, whatever the environment says about other hosts.
std::string no_proxy_list() {
  std::string list = "127.0.0.1,localhost,::1";
  for (const char* name : {"no_proxy", "NO_PROXY"})
    if (const char* value = std::getenv(name); value && *value) list += std::string(",") + value;
  return list;
}

curl_slist* header_list(const HttpRequest& request) {
  curl_slist* list = curl_slist_append(nullptr, "Expect:");
  for (const auto& [name, value] : request.headers)
    list = curl_slist_append(list, (name + ": " + value).c_str());
  return list;
}

void configure(CURL* easy, const HttpRequest& request, const HttpTimeouts& timeouts,
               Exchange& exchange, curl_slist* headers, const std::string& no_proxy) {
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_NOPROXY, no_proxy.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeouts.connect.count()));
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPIDLE, 30L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPINTVL, 15L);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &exchange);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &exchange);
  if (request.method == "GET") {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  } else {
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
}

std::string seconds(std::chrono::milliseconds ms) {
  return fmt::format("{:g}", ms.count() / 1000.0);
}

// The timeout that has struck, if any: first byte before the body starts, stall after.
TransportError check_timeouts(const Exchange& exchange, const HttpTimeouts& timeouts,
                              std::string& message) {
  const auto now = Clock::now();
  if (timeouts.total.count() > 0 && now - exchange.start > timeouts.total) {
    message = "no complete answer within " + (seconds(timeouts.total)) + " s";
    return TransportError::total_timeout;
  }
  if (exchange.response->body_bytes == 0) {
    if (now - exchange.start <= timeouts.first_byte) return TransportError::none;
    message = "no answer within " + (seconds(timeouts.first_byte)) + " s";
    return TransportError::first_byte_timeout;
  }
  if (now - exchange.last_body <= timeouts.stall) return TransportError::none;
  message = "stalled: no data for " + (seconds(timeouts.stall)) + " s";
  return TransportError::stall;
}

TransportError classify(CURLcode code, const Exchange& exchange) {
  const bool got_body = exchange.response->body_bytes > 0;
  switch (code) {
    case CURLE_OK:
      return TransportError::none;
    case CURLE_WRITE_ERROR:
      if (exchange.too_large) return TransportError::too_large;
      return exchange.sink_refused ? TransportError::aborted : TransportError::other;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
      return TransportError::connect;
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
      return got_body ? TransportError::cut_off : TransportError::connect;
    default:
      return TransportError::other;
  }
}

void perform(CURLM* multi, Exchange& exchange, const HttpTimeouts& timeouts, const char* errors) {
  HttpResponse& response = *exchange.response;
  while (true) {
    int running = 0;
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      response.error = TransportError::other;
      response.error_message = "libcurl failed";
      return;
    }
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      response.error = classify(message->data.result, exchange);
      if (response.error == TransportError::too_large)
        response.error_message = fmt::format("the answer grew beyond {} bytes", exchange.max_body);
      else if (response.error != TransportError::none)
        response.error_message = *errors ? errors : curl_easy_strerror(message->data.result);
      return;
    }
    if (running == 0) return;
    response.error = check_timeouts(exchange, timeouts, response.error_message);
    if (response.error != TransportError::none) return;
    curl_multi_poll(multi, nullptr, 0, 50, nullptr);
  }
}

}  // namespace

HttpResponse CurlTransport::send(const HttpRequest& request, const HttpTimeouts& timeouts,
                                 const BodySink& sink) {
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (std::getenv("KOPT_LLM_TRACE"))
    std::fprintf(stderr, "kopt llm: %s\n", request.describe().c_str());
  HttpResponse response;
  Exchange exchange;
  exchange.easy = curl_easy_init();
  exchange.sink = &sink;
  exchange.response = &response;
  exchange.max_body = timeouts.max_body;
  char errors[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(exchange.easy, CURLOPT_ERRORBUFFER, errors);
  curl_slist* headers = header_list(request);
  const std::string no_proxy = no_proxy_list();
  configure(exchange.easy, request, timeouts, exchange, headers, no_proxy);
  CURLM* multi = curl_multi_init();
  curl_multi_add_handle(multi, exchange.easy);
  perform(multi, exchange, timeouts, errors);
  curl_easy_getinfo(exchange.easy, CURLINFO_RESPONSE_CODE, &response.status);
  curl_multi_remove_handle(multi, exchange.easy);
  curl_multi_cleanup(multi);
  curl_easy_cleanup(exchange.easy);
  curl_slist_free_all(headers);
  if (std::getenv("KOPT_LLM_TRACE"))
    std::fprintf(stderr, "kopt llm: HTTP %ld, %zu bytes%s%s\n", response.status,
                 response.body_bytes, response.error_message.empty() ? "" : ", ",
                 response.error_message.c_str());
  return response;
}

std::string HttpResponse::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

std::string HttpRequest::describe() const {
  std::string text = method + " " + url;
  for (const auto& [name, value] : headers)
    text += "\n  " + name + ": " + redact_header(name, value);
  return text;
}

std::string to_string(TransportError error) {
  switch (error) {
    case TransportError::none:
      return "none";
    case TransportError::connect:
      return "connect";
    case TransportError::first_byte_timeout:
      return "first_byte_timeout";
    case TransportError::stall:
      return "stall";
    case TransportError::total_timeout:
      return "total_timeout";
    case TransportError::cut_off:
      return "cut_off";
    case TransportError::aborted:
      return "aborted";
    case TransportError::too_large:
      return "too_large";
    case TransportError::other:
      return "other";
  }
  return "other";
}

}  // namespace kopt::llm
