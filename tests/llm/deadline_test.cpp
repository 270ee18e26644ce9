// The limits of one model call against a loopback server that never stops: an overall
// deadline (retries and waits included) and a cap on the bytes an answer may take.
#include <gtest/gtest.h>

#include "agent/llm/guarded_backend.h"
#include "agent/llm/http_backend.h"
#include "tests/llm/contract_scenario.h"
#include "util/json.h"

namespace kopt::llm::testing {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

class DeadlineTest : public ::testing::Test {
 protected:
  std::unique_ptr<HttpChatBackend> openai(milliseconds deadline) {
    HttpBackendConfig c;
    c.name = "openai:fake";
    c.key_variable = "OPENAI_API_KEY";
    c.retry.deadline = deadline;
    c.sleeper = sleeper;
    c.uniform01 = [] { return 0.5; };
    return std::make_unique<HttpChatBackend>(c,
                                             make_openai_adapter({server.url() + "/v1", "m", {}}));
  }

  FakeApiServer server;
  std::shared_ptr<RecordingSleeper> sleeper = std::make_shared<RecordingSleeper>();
};

// An OpenAI stream event carrying `text`.
std::string delta(const std::string& text) {
  return "data: " + dump_json({{"choices", {{{"index", 0}, {"delta", {{"content", text}}}}}}}) +
         "\n\n";
}

}  // namespace

TEST_F(DeadlineTest, ABodyThatNeverEndsIsCutAtTheDeadline) {
  Reply reply;
  reply.chunks = std::vector<std::string>(2000, " ");
  reply.chunks.front() = "{\"id\":";
  reply.delay_between = milliseconds(20);
  server.enqueue(reply);
  const auto start = Clock::now();
  auto response = openai(milliseconds(600))->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("deadline of 0.6 s"), std::string::npos)
      << response.error().message;
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(response.error().permanent);
}

TEST_F(DeadlineTest, NoRetryWaitsBeyondTheDeadline) {
  server.set_handler([](const Received&) { return Reply{500, R"({"error":{"message":"x"}})"}; });
  auto response = openai(milliseconds(200))->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(server.received().size(), 1u);
  EXPECT_TRUE(sleeper->waits.empty()) << "a 0.75 s back-off does not fit in 0.2 s";
}

TEST_F(DeadlineTest, AHugeBodyIsRefusedAtTheWireCap) {
  ChatRequest request = greeting_request();  // max_tokens 64: a 3 MiB cap.
  server.enqueue(Reply{200, openai_json({std::string(8 << 20, 'x'), {}, "", 1, 1, "m"})});
  auto response = openai(milliseconds(10000))->chat(request);
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find(
                "grew beyond " + std::to_string(answer_wire_cap(request.max_tokens)) + " bytes"),
            std::string::npos)
      << response.error().message;
}

TEST_F(DeadlineTest, AStreamBeyondTheWireCapIsCutAndSaysSo) {
  Reply reply;
  reply.content_type = "text/event-stream";
  reply.chunks = std::vector<std::string>(5000, delta(std::string(1000, 'y')));
  server.enqueue(reply);
  auto response = openai(milliseconds(20000))->chat(greeting_request(), ChatOptions{true, nullptr});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->finish_reason, FinishReason::length);
  EXPECT_NE(response->finish_detail.find("cut by kopt"), std::string::npos);
  EXPECT_LE(response->text.size(), answer_wire_cap(64));
}

TEST_F(DeadlineTest, ARefusalIsPermanentAndAServerErrorIsNot) {
  server.enqueue(Reply{401, R"({"error":{"message":"no"}})"});
  server.enqueue(Reply{503, R"({"error":{"message":"busy"}})"});
  auto backend = openai(milliseconds(100));
  auto refused = backend->chat(greeting_request());
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.error().permanent);
  auto busy = backend->chat(greeting_request());
  ASSERT_FALSE(busy.ok());
  EXPECT_FALSE(busy.error().permanent);
}

}  // namespace kopt::llm::testing
