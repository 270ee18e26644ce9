// The HTTP backends against a misbehaving server on loopback: rate limits, server errors, bad
// keys, unknown models, malformed and truncated answers, stalls and slow-but-steady streams.
#include <gtest/gtest.h>

#include "agent/llm/http_backend.h"
#include "agent/llm/server_process.h"
#include "tests/llm/contract_scenario.h"

namespace kopt::llm::testing {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

const std::string kKey = "sk-test-SECRET0123456789abcdef";

class HttpResilienceTest : public ::testing::Test {
 protected:
  std::unique_ptr<HttpChatBackend> openai(HttpTimeouts timeouts = {}) {
    auto key = std::make_shared<const ApiKey>("OPENAI_API_KEY", kKey);
    return std::make_unique<HttpChatBackend>(
        config("openai:fake", "OPENAI_API_KEY", key, timeouts),
        make_openai_adapter({server.url() + "/v1", "fake-model-1", key}));
  }
  std::unique_ptr<HttpChatBackend> anthropic() {
    auto key = std::make_shared<const ApiKey>("ANTHROPIC_API_KEY", kKey);
    return std::make_unique<HttpChatBackend>(
        config("anthropic:fake", "ANTHROPIC_API_KEY", key, {}),
        make_anthropic_adapter({server.url(), "fake-model-1", key}));
  }
  HttpBackendConfig config(std::string name, std::string variable,
                           std::shared_ptr<const ApiKey> key, HttpTimeouts timeouts) {
    HttpBackendConfig c;
    c.name = std::move(name);
    c.key_variable = std::move(variable);
    c.key = std::move(key);
    c.timeouts = timeouts;
    c.retry.base_delay = milliseconds(1000);
    c.sleeper = sleeper;
    c.uniform01 = [] { return 0.5; };
    return c;
  }
  static Reply error_reply(int status, std::string body) {
    Reply reply;
    reply.status = status;
    reply.body = std::move(body);
    return reply;
  }
  static Reply stream_reply(std::vector<std::string> chunks) {
    Reply reply;
    reply.content_type = "text/event-stream";
    reply.chunks = std::move(chunks);
    return reply;
  }

  FakeApiServer server;
  std::shared_ptr<RecordingSleeper> sleeper = std::make_shared<RecordingSleeper>();
};

TEST_F(HttpResilienceTest, RateLimitWaitsAsLongAsRetryAfterSays) {
  Reply limited = error_reply(429, R"({"error":{"message":"slow down"}})");
  limited.headers = {{"Retry-After", "2"}};
  server.enqueue(limited);
  server.set_handler(scenario_handler(false));
  auto response = openai()->chat(greeting_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->attempts, 2);
  EXPECT_EQ(sleeper->waits, std::vector<milliseconds>{milliseconds(2000)});
}

TEST_F(HttpResilienceTest, RetryAfterBeyondTheLimitIsReportedNotWaited) {
  Reply limited = error_reply(429, R"({"error":{"message":"quota exceeded"}})");
  limited.headers = {{"Retry-After", "3600"}};
  server.enqueue(limited);
  auto response = openai()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("rate limited"), std::string::npos);
  EXPECT_NE(response.error().message.find("3600"), std::string::npos);
  EXPECT_NE(response.error().message.find("quota exceeded"), std::string::npos);
  EXPECT_TRUE(sleeper->waits.empty());
}

TEST_F(HttpResilienceTest, ServerErrorsAreRetriedWithExponentialBackoff) {
  server.enqueue(error_reply(500, "oops"));
  server.enqueue(error_reply(503, "busy"));
  server.set_handler(scenario_handler(false));
  auto response = openai()->chat(greeting_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->attempts, 3);
  EXPECT_EQ(sleeper->waits, (std::vector<milliseconds>{milliseconds(750), milliseconds(1500)}));
}

TEST_F(HttpResilienceTest, PersistentServerErrorGivesUpAfterMaxAttempts) {
  server.set_handler([](const Received&) { return error_reply(502, "bad gateway"); });
  auto response = openai()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("HTTP 502"), std::string::npos);
  EXPECT_NE(response.error().message.find("after 5 attempts"), std::string::npos);
  EXPECT_EQ(server.received().size(), 5u);
}

TEST_F(HttpResilienceTest, BadKeyIsNotRetriedAndTheKeyNeverAppears) {
  server.enqueue(
      error_reply(401, R"({"error":{"message":"Incorrect API key provided: )" + kKey + R"("}})"));
  auto response = openai()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  const std::string& message = response.error().message;
  EXPECT_NE(message.find("bad key"), std::string::npos) << message;
  EXPECT_NE(message.find("OPENAI_API_KEY"), std::string::npos) << message;
  EXPECT_EQ(message.find("SECRET"), std::string::npos) << message;
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].headers.at("Authorization"), "Bearer " + kKey);
}

TEST_F(HttpResilienceTest, ForbiddenIsABadKeyToo) {
  server.enqueue(error_reply(403, R"({"error":{"message":"no access"}})"));
  auto response = openai()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("bad key"), std::string::npos);
  EXPECT_EQ(server.received().size(), 1u);
}

TEST_F(HttpResilienceTest, NotFoundNamesTheUnknownModel) {
  server.enqueue(error_reply(404, R"({"error":{"message":"The model does not exist"}})"));
  auto response = openai()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("unknown model 'fake-model-1'"), std::string::npos);
  EXPECT_NE(response.error().message.find("The model does not exist"), std::string::npos);
  EXPECT_EQ(server.received().size(), 1u);
}

TEST_F(HttpResilienceTest, MalformedJsonIsAClearError) {
  server.enqueue(error_reply(200, R"({"choices":[{"message":{"content":"hi")"));
  auto response = openai()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("not valid JSON"), std::string::npos);
}

TEST_F(HttpResilienceTest, JsonOfTheWrongShapeIsAClearError) {
  server.enqueue(error_reply(200, R"({"choices":"none"})"));
  server.enqueue(error_reply(200, R"({"choices":[{"message":{"content":42,"tool_calls":7}}]})"));
  EXPECT_NE(openai()->chat(greeting_request()).error().message.find("no choices"),
            std::string::npos);
  auto odd = openai()->chat(greeting_request());
  ASSERT_TRUE(odd.ok()) << odd.error().message;
  EXPECT_EQ(odd->text, "");
}

TEST_F(HttpResilienceTest, StreamCutOffMidwayIsAnErrorAndNotRetried) {
  const std::string stream = openai_sse({kGreeting, {}, "", 12, 5, "m"});
  Reply reply = stream_reply(split_every(stream.substr(0, stream.size() / 2), 9));
  reply.cut = true;
  server.enqueue(reply);
  auto response = openai()->chat(greeting_request(), ChatOptions{true, nullptr});
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("cut off"), std::string::npos)
      << response.error().message;
  EXPECT_EQ(server.received().size(), 1u);
}

TEST_F(HttpResilienceTest, StreamEndingWithoutFinishIsAnError) {
  const std::string stream = openai_sse({kGreeting, {}, "", 12, 5, "m"});
  server.enqueue(stream_reply({stream.substr(0, stream.find("\"finish_reason\":\"stop\"") - 200)}));
  auto response = openai()->chat(greeting_request(), ChatOptions{true, nullptr});
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("ended before the answer was complete"),
            std::string::npos)
      << response.error().message;
}

TEST_F(HttpResilienceTest, ErrorEventInsideAStreamIsAnError) {
  server.enqueue(stream_reply({"data: {\"error\":{\"message\":\"overloaded\"}}\n\n"}));
  auto response = openai()->chat(greeting_request(), ChatOptions{true, nullptr});
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("overloaded"), std::string::npos);
}

TEST_F(HttpResilienceTest, StalledStreamIsCutOffAtTheStallTimeout) {
  Reply reply = stream_reply(split_every(openai_sse({kGreeting, {}, "", 12, 5, "m"}), 40));
  reply.stall_after_first = milliseconds(5000);
  server.enqueue(reply);
  const auto start = Clock::now();
  auto response =
      openai({milliseconds(1000), milliseconds(5000), milliseconds(300), milliseconds(0)})
          ->chat(greeting_request(), ChatOptions{true, nullptr});
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("stalled"), std::string::npos)
      << response.error().message;
  EXPECT_LT(seconds, 2.0);
}

TEST_F(HttpResilienceTest, SlowButSteadyStreamIsNotCutOff) {
  Reply reply = stream_reply(split_every(openai_sse({kGreeting, {}, "", 12, 5, "m"}), 120));
  reply.delay_between = milliseconds(100);
  ASSERT_GT(reply.chunks.size(), 5u);
  server.enqueue(reply);
  auto response =
      openai({milliseconds(1000), milliseconds(5000), milliseconds(300), milliseconds(0)})
          ->chat(greeting_request(), ChatOptions{true, nullptr});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, kGreeting);
  EXPECT_GT(response->latency_seconds, 0.1 * (reply.chunks.size() - 1) - 0.05);
}

TEST_F(HttpResilienceTest, LongUnstreamedGenerationOutlastsTheStallTimeout) {
  Reply reply = error_reply(200, openai_json({kGreeting, {}, "", 12, 5, "m"}));
  reply.delay_before = milliseconds(700);
  server.enqueue(reply);
  auto response =
      openai({milliseconds(1000), milliseconds(5000), milliseconds(200), milliseconds(0)})
          ->chat(greeting_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, kGreeting);
}

TEST_F(HttpResilienceTest, HungServerHitsTheFirstByteLimitOnce) {
  Reply reply = error_reply(200, openai_json({kGreeting, {}, "", 12, 5, "m"}));
  reply.delay_before = milliseconds(3000);
  server.enqueue(reply);
  auto response =
      openai({milliseconds(1000), milliseconds(300), milliseconds(300), milliseconds(0)})
          ->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("no answer within 0.3 s"), std::string::npos)
      << response.error().message;
  EXPECT_EQ(server.received().size(), 1u);
}

TEST_F(HttpResilienceTest, ServerThatIgnoresStreamingStillAnswers) {
  server.enqueue(error_reply(200, openai_json({kGreeting, {}, "", 12, 5, "m"})));
  std::string streamed;
  auto response = openai()->chat(
      greeting_request(), ChatOptions{true, [&](std::string_view text) { streamed += text; }});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, kGreeting);
  EXPECT_EQ(streamed, kGreeting);
}

TEST(HttpUnreachableTest, UnreachableServerIsOneClearLine) {
  auto port = free_loopback_port();
  ASSERT_TRUE(port.ok());
  auto sleeper = std::make_shared<RecordingSleeper>();
  HttpBackendConfig config;
  config.name = "openai:x";
  config.sleeper = sleeper;
  HttpChatBackend backend(
      config,
      make_openai_adapter({"http://127.0.0.1:" + std::to_string(*port) + "/v1", "x", nullptr}));
  auto response = backend.chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().message.rfind("cannot reach http://127.0.0.1:", 0), 0u)
      << response.error().message;
  EXPECT_EQ(response.error().message.find('\n'), std::string::npos);
  EXPECT_EQ(sleeper->waits.size(), 4u);
}

TEST_F(HttpResilienceTest, AnthropicOverloadedIsRetriedAndHeadersAreSent) {
  server.enqueue(error_reply(
      529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
  server.set_handler(scenario_handler(true));
  auto response = anthropic()->chat(greeting_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, kGreeting);
  const auto received = server.received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[1].path, "/v1/messages");
  EXPECT_EQ(received[1].headers.at("x-api-key"), kKey);
  EXPECT_EQ(received[1].headers.at("anthropic-version"), "2023-06-01");
}

TEST_F(HttpResilienceTest, AnthropicBadKeyNamesTheVariable) {
  server.enqueue(error_reply(
      401,
      R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"));
  auto response = anthropic()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("bad key"), std::string::npos);
  EXPECT_NE(response.error().message.find("ANTHROPIC_API_KEY"), std::string::npos);
  EXPECT_NE(response.error().message.find("authentication_error"), std::string::npos);
}

TEST_F(HttpResilienceTest, AnthropicStreamCutBeforeMessageStopIsAnError) {
  const std::string stream = anthropic_sse({kGreeting, {}, "", 12, 5, "m"});
  server.enqueue(stream_reply({stream.substr(0, stream.find("event: message_stop"))}));
  auto response = anthropic()->chat(greeting_request(), ChatOptions{true, nullptr});
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("no message_stop"), std::string::npos);
}

}  // namespace
}  // namespace kopt::llm::testing
