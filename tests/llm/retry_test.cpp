// Retry decisions against a scripted transport: no network, no real waiting.
#include "agent/llm/retry.h"

#include <gtest/gtest.h>

#include <deque>

#include "tests/llm/fake_api_server.h"

namespace kopt::llm::testing {
namespace {

using std::chrono::milliseconds;

// Answers with the responses it was given, in order.
class ScriptedTransport : public HttpTransport {
 public:
  std::deque<HttpResponse> responses;
  std::vector<std::string> body_for_sink;  ///< Fed to the sink on each exchange, if non-empty.
  int sends = 0;

  HttpResponse send(const HttpRequest&, const HttpTimeouts&, const BodySink& sink) override {
    ++sends;
    HttpResponse response = responses.front();
    if (responses.size() > 1) responses.pop_front();
    if (sink && response.status == 200 && !body_for_sink.empty()) sink(body_for_sink.front());
    return response;
  }
};

HttpResponse status(long code, std::map<std::string, std::string> headers = {}) {
  HttpResponse response;
  response.status = code;
  response.headers = std::move(headers);
  return response;
}

HttpResponse transport_error(TransportError error) {
  HttpResponse response;
  response.error = error;
  return response;
}

TEST(RetryAfterTest, ReadsSecondsMillisecondsAndDates) {
  EXPECT_EQ(retry_after(status(429, {{"retry-after", "7"}})), milliseconds(7000));
  EXPECT_EQ(retry_after(status(429, {{"retry-after", "1.5"}})), milliseconds(1500));
  EXPECT_EQ(retry_after(status(429, {{"retry-after-ms", "250"}, {"retry-after", "9"}})),
            milliseconds(250));
  EXPECT_EQ(retry_after(status(429, {{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}})),
            milliseconds(0));
  EXPECT_EQ(retry_after(status(429, {{"retry-after", "soon"}})), std::nullopt);
  EXPECT_EQ(retry_after(status(429)), std::nullopt);
}

TEST(RetryAfterTest, FutureDateIsAWait) {
  char date[64];
  const time_t later = std::time(nullptr) + 30;
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", std::gmtime(&later));
  auto wait = retry_after(status(503, {{"retry-after", date}}));
  ASSERT_TRUE(wait.has_value());
  EXPECT_NEAR(wait->count(), 30000, 2000);
}

TEST(TransientTest, RetriesWhatCanHealOnly) {
  for (long code : {408L, 429L, 500L, 502L, 503L, 504L, 529L})
    EXPECT_TRUE(is_transient(status(code))) << code;
  for (long code : {200L, 400L, 401L, 403L, 404L, 422L})
    EXPECT_FALSE(is_transient(status(code))) << code;
  EXPECT_TRUE(is_transient(transport_error(TransportError::connect)));
  EXPECT_TRUE(is_transient(transport_error(TransportError::stall)));
  EXPECT_FALSE(is_transient(transport_error(TransportError::first_byte_timeout)));
  EXPECT_FALSE(is_transient(transport_error(TransportError::aborted)));
}

TEST(BackoffTest, DoublesWithEqualJitterUpToTheCap) {
  RetryPolicy policy;
  policy.base_delay = milliseconds(1000);
  policy.max_delay = milliseconds(5000);
  EXPECT_EQ(backoff_delay(policy, 1, 0.0), milliseconds(500));
  EXPECT_EQ(backoff_delay(policy, 1, 1.0), milliseconds(1000));
  EXPECT_EQ(backoff_delay(policy, 2, 0.0), milliseconds(1000));
  EXPECT_EQ(backoff_delay(policy, 3, 1.0), milliseconds(4000));
  EXPECT_EQ(backoff_delay(policy, 9, 1.0), milliseconds(5000));
}

TEST(RetryingSenderTest, StopsAtTheFirstSuccess) {
  ScriptedTransport transport;
  transport.responses = {status(500), transport_error(TransportError::connect), status(200)};
  RecordingSleeper sleeper;
  RetryingSender sender(transport, RetryPolicy{}, sleeper, [] { return 0.0; });
  int attempts = 0;
  EXPECT_EQ(sender.send({}, {}, {}, attempts).status, 200);
  EXPECT_EQ(attempts, 3);
  EXPECT_EQ(sleeper.waits, (std::vector<milliseconds>{milliseconds(500), milliseconds(1000)}));
}

TEST(RetryingSenderTest, DoesNotRetryClientErrors) {
  ScriptedTransport transport;
  transport.responses = {status(401)};
  RecordingSleeper sleeper;
  RetryingSender sender(transport, RetryPolicy{}, sleeper);
  int attempts = 0;
  EXPECT_EQ(sender.send({}, {}, {}, attempts).status, 401);
  EXPECT_EQ(transport.sends, 1);
  EXPECT_TRUE(sleeper.waits.empty());
}

TEST(RetryingSenderTest, GivesUpAfterMaxAttempts) {
  ScriptedTransport transport;
  transport.responses = {status(503)};
  RecordingSleeper sleeper;
  RetryPolicy policy;
  policy.max_attempts = 3;
  RetryingSender sender(transport, policy, sleeper);
  int attempts = 0;
  EXPECT_EQ(sender.send({}, {}, {}, attempts).status, 503);
  EXPECT_EQ(attempts, 3);
  EXPECT_EQ(sleeper.waits.size(), 2u);
}

TEST(RetryingSenderTest, NeverRetriesAStreamThatHasStarted) {
  ScriptedTransport transport;
  HttpResponse cut = status(200);
  cut.error = TransportError::cut_off;
  transport.responses = {cut, status(200)};
  transport.body_for_sink = {"data: {}\n\n"};
  RecordingSleeper sleeper;
  RetryingSender sender(transport, RetryPolicy{}, sleeper);
  int attempts = 0;
  std::string seen;
  EXPECT_EQ(sender
                .send(
                    {}, {},
                    [&](std::string_view chunk) {
                      seen += chunk;
                      return true;
                    },
                    attempts)
                .error,
            TransportError::cut_off);
  EXPECT_EQ(attempts, 1);
  EXPECT_EQ(seen, "data: {}\n\n");
}

}  // namespace
}  // namespace kopt::llm::testing
