// Retrying HTTP exchanges: exponential back-off with jitter on 429, 5xx and connection errors,
// honouring Retry-After. Sleeping and randomness are seams, so tests run without waiting.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "agent/llm/http_transport.h"

namespace kopt::llm {

/// How often and how patiently to retry.
struct RetryPolicy {
  int max_attempts = 5;
  std::chrono::milliseconds base_delay{1000};  ///< Before the second attempt, before jitter.
  std::chrono::milliseconds max_delay{30000};
  /// A server asking for a longer wait than this is answered with an error instead.
  std::chrono::milliseconds max_retry_after{120000};
  /// The whole call, every attempt and wait included, ends by then; 0: no deadline.
  std::chrono::milliseconds deadline{600000};
};

/// Waits; the seam that keeps retry tests fast.
class Sleeper {
 public:
  virtual ~Sleeper() = default;
  /// Blocks for `duration`.
  virtual void sleep(std::chrono::milliseconds duration) = 0;
};

/// std::this_thread::sleep_for.
class RealSleeper : public Sleeper {
 public:
  void sleep(std::chrono::milliseconds duration) override;
};

/// A process-wide RealSleeper.
std::shared_ptr<Sleeper> real_sleeper();

/// The wait a response asks for: Retry-After (seconds or an HTTP date) or retry-after-ms.
std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response);

/// True for failures worth another attempt: connection errors, stalls, cut-off bodies, 408,
/// 409, 425, 429 and 5xx. A generation slower than the first-byte limit is not retried.
bool is_transient(const HttpResponse& response);

/// The back-off before attempt `attempt + 1` (attempt counts from 1), with "equal jitter":
/// half of the exponential delay plus `uniform01` times the other half.
std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int attempt, double uniform01);

/// Sends through a transport, retrying transient failures. A streamed response whose body
/// has begun to reach the sink is never retried (the caller has seen part of it).
class RetryingSender {
 public:
  RetryingSender(HttpTransport& transport, RetryPolicy policy, Sleeper& sleeper,
                 std::function<double()> uniform01 = {});

  /// The last response; `attempts` is set to the number of exchanges made. No attempt runs or
  /// waits past the policy's deadline: one cut by it fails as total_timeout.
  HttpResponse send(const HttpRequest& request, const HttpTimeouts& timeouts, const BodySink& sink,
                    int& attempts);

 private:
  std::optional<std::chrono::milliseconds> wait_before_retry(const HttpResponse& response,
                                                             int attempt);

  HttpTransport& transport_;
  RetryPolicy policy_;
  Sleeper& sleeper_;
  std::function<double()> uniform01_;
};

}  // namespace kopt::llm
