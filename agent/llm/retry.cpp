#include "agent/llm/retry.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <random>
#include <thread>

namespace kopt::llm {

namespace {

std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

std::function<double()> default_uniform() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  return [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
}

}  // namespace

void RealSleeper::sleep(std::chrono::milliseconds duration) {
  std::this_thread::sleep_for(duration);
}

std::shared_ptr<Sleeper> real_sleeper() {
  static auto sleeper = std::make_shared<RealSleeper>();
  return sleeper;
}

std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response) {
  if (auto ms = number(response.header("retry-after-ms")))
    return std::chrono::milliseconds(static_cast<long>(*ms));
  const std::string value = response.header("retry-after");
  if (auto seconds = number(value))
    return std::chrono::milliseconds(static_cast<long>(*seconds * 1000));
  if (value.empty()) return std::nullopt;
  const time_t when = curl_getdate(value.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  return std::chrono::milliseconds(std::max<long>(0, (when - std::time(nullptr)) * 1000L));
}

bool is_transient(const HttpResponse& response) {
  switch (response.error) {
    case TransportError::connect:
    case TransportError::stall:
    case TransportError::cut_off:
      return true;
    case TransportError::none:
      break;
    default:
      return false;
  }
  const long s = response.status;
  return s == 408 || s == 409 || s == 425 || s == 429 || (s >= 500 && s <= 599);
}

std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int attempt, double uniform01) {
  const double exponential = policy.base_delay.count() * std::pow(2.0, std::max(0, attempt - 1));
  const double capped = std::min<double>(exponential, policy.max_delay.count());
  return std::chrono::milliseconds(static_cast<long>(capped / 2 + uniform01 * capped / 2));
}

RetryingSender::RetryingSender(HttpTransport& transport, RetryPolicy policy, Sleeper& sleeper,
                               std::function<double()> uniform01)
    : transport_(transport),
      policy_(policy),
      sleeper_(sleeper),
      uniform01_(uniform01 ? std::move(uniform01) : default_uniform()) {}

std::optional<std::chrono::milliseconds> RetryingSender::wait_before_retry(
    const HttpResponse& response, int attempt) {
  if (attempt >= policy_.max_attempts || !is_transient(response)) return std::nullopt;
  if (auto asked = retry_after(response)) {
    if (*asked > policy_.max_retry_after) return std::nullopt;
    return *asked;
  }
  return backoff_delay(policy_, attempt, uniform01_());
}

HttpResponse RetryingSender::send(const HttpRequest& request, const HttpTimeouts& timeouts,
                                  const BodySink& sink, int& attempts) {
  bool delivered = false;
  BodySink watched;
  if (sink) {
    watched = [&](std::string_view chunk) {
      delivered = true;
      return sink(chunk);
    };
  }
  using Clock = std::chrono::steady_clock;
  const bool bounded = policy_.deadline.count() > 0;
  const auto deadline = Clock::now() + policy_.deadline;
  auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  };
  for (attempts = 1;; ++attempts) {
    HttpTimeouts limits = timeouts;
    if (bounded && (limits.total.count() == 0 || limits.total > left()))
      limits.total = std::max(left(), std::chrono::milliseconds(1));
    HttpResponse response = transport_.send(request, limits, watched);
    if (bounded && response.error == TransportError::total_timeout)
      response.error_message =
          fmt::format("no complete answer within the deadline of {:g} s (KOPT_LLM_DEADLINE_S)",
                      policy_.deadline.count() / 1000.0);
    if (delivered) return response;
    auto wait = wait_before_retry(response, attempts);
    if (!wait || (bounded && *wait >= left())) return response;
    sleeper_.sleep(*wait);
  }
}

}  // namespace kopt::llm
