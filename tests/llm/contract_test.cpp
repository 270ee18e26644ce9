// One contract, every backend: the OpenAI and Anthropic adapters over real HTTP on loopback,
// replay of a recorded run, and a command behind exec:.
#include <gtest/gtest.h>

#include <fstream>

#include "agent/llm/backend_factory.h"
#include "agent/llm/chat_json.h"
#include "tests/llm/contract_scenario.h"
#include "util/files.h"

namespace kopt::llm::testing {
namespace {

// A backend behind a fake OpenAI-compatible server.
struct OpenAiBackend {
  static constexpr bool anthropic = false;
  FakeApiServer server;
  std::unique_ptr<LlmBackend> make() {
    server.set_handler(scenario_handler(anthropic));
    return build();
  }
  std::unique_ptr<LlmBackend> make_broken() {
    server.set_handler([](const Received&) { return Reply{200, R"({"choices": [{"message": )"}; });
    return build();
  }
  std::unique_ptr<LlmBackend> build() {
    BackendOptions options;
    options.env = fixed_environment({{"OPENAI_BASE_URL", server.url() + "/v1"}});
    options.sleeper = std::make_shared<RecordingSleeper>();
    return make_backend("openai:fake-model-1", options).value();
  }
};

// A backend behind a fake Anthropic server.
struct AnthropicBackend {
  static constexpr bool anthropic = true;
  FakeApiServer server;
  std::unique_ptr<LlmBackend> make() {
    server.set_handler(scenario_handler(anthropic));
    return build();
  }
  std::unique_ptr<LlmBackend> make_broken() {
    server.set_handler([](const Received&) {
      return Reply{200, R"({"type":"message","content":[{)"};
    });
    return build();
  }
  std::unique_ptr<LlmBackend> build() {
    BackendOptions options;
    options.env =
        fixed_environment({{"ANTHROPIC_BASE_URL", server.url()}, {"ANTHROPIC_API_KEY", "k"}});
    options.sleeper = std::make_shared<RecordingSleeper>();
    return make_backend("anthropic:fake-model-1", options).value();
  }
};

// A recorded run holding the scenario's three calls.
struct ReplayBackendFixture {
  TempDir run{"kopt-replay-test-"};
  std::unique_ptr<LlmBackend> make() {
    std::ofstream events(run.path() / "events.jsonl");
    events << R"({"type":"run_started","seq":0})"
           << "\n";
    ChatResponse greeting{kGreeting, {}, FinishReason::stop, "stop", {12, 5}, "fake-model-1", 0.1,
                          1,         ""};
    ChatResponse call{"",
                      {{"call_0", "compile", kArguments, ""}},
                      FinishReason::tool_calls,
                      "tool_calls",
                      {12, 5},
                      "fake-model-1",
                      0.1,
                      1,
                      ""};
    ChatResponse result{
        "tool said: build ok", {}, FinishReason::stop, "stop", {12, 5}, "fake-model-1", 0.1, 1, ""};
    events << dump_json(model_call_event(1, "analyst", greeting_request(), greeting)) << "\n";
    events << dump_json(model_call_event(2, "optimizer", tool_request(), call)) << "\n";
    events << dump_json(model_call_event(3, "optimizer", tool_result_request(), result)) << "\n";
    return make_backend("replay:" + run.path().string()).value();
  }
  std::unique_ptr<LlmBackend> make_broken() {
    std::ofstream(run.path() / "events.jsonl") << "{\"type\":\"model_call\", \"request\": {\n";
    return make_backend("replay:" + run.path().string()).value();
  }
};

// fake_model.py behind exec:.
struct ExecBackendFixture {
  std::unique_ptr<LlmBackend> make() {
    return make_backend("exec:python3 " + (test_dir() / "fake_model.py").string()).value();
  }
  std::unique_ptr<LlmBackend> make_broken() {
    return make_backend(R"(exec:echo '{"text": "half')").value();
  }
};

template <class Fixture>
class BackendContractTest : public ::testing::Test {
 protected:
  Fixture fixture;
};

using Backends =
    ::testing::Types<OpenAiBackend, AnthropicBackend, ReplayBackendFixture, ExecBackendFixture>;
TYPED_TEST_SUITE(BackendContractTest, Backends);

TYPED_TEST(BackendContractTest, AnswersWithTextUsageAndFinishReason) {
  auto backend = this->fixture.make();
  auto response = backend->chat(greeting_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, kGreeting);
  EXPECT_TRUE(response->tool_calls.empty());
  EXPECT_EQ(response->finish_reason, FinishReason::stop);
  EXPECT_EQ(response->usage, (Usage{12, 5}));
  EXPECT_EQ(response->model, "fake-model-1");
}

TYPED_TEST(BackendContractTest, ReturnsToolCallWithParsedArguments) {
  auto backend = this->fixture.make();
  auto response = backend->chat(tool_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].name, "compile");
  EXPECT_EQ(response->tool_calls[0].arguments, kArguments);
  EXPECT_TRUE(response->tool_calls[0].arguments_error.empty());
  EXPECT_FALSE(response->tool_calls[0].id.empty());
  EXPECT_EQ(response->finish_reason, FinishReason::tool_calls);
}

TYPED_TEST(BackendContractTest, SendsToolResultsBack) {
  auto backend = this->fixture.make();
  auto response = backend->chat(tool_result_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, "tool said: build ok");
}

TYPED_TEST(BackendContractTest, StreamsTextToTheSink) {
  auto backend = this->fixture.make();
  std::string streamed;
  ChatOptions options{true, [&](std::string_view delta) { streamed += delta; }};
  auto response = backend->chat(greeting_request(), options);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->text, kGreeting);
  EXPECT_EQ(streamed, kGreeting);
  EXPECT_EQ(response->usage, (Usage{12, 5}));
}

TYPED_TEST(BackendContractTest, StreamsToolCalls) {
  auto backend = this->fixture.make();
  auto response = backend->chat(tool_request(), ChatOptions{true, nullptr});
  ASSERT_TRUE(response.ok()) << response.error().message;
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].arguments, kArguments);
}

TYPED_TEST(BackendContractTest, MalformedReplyIsAnErrorNotACrash) {
  auto backend = this->fixture.make_broken();
  auto response = backend->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_FALSE(response.error().message.empty());
}

TYPED_TEST(BackendContractTest, ResponsesSurviveTheRecordRoundTrip) {
  auto backend = this->fixture.make();
  auto response = backend->chat(tool_request());
  ASSERT_TRUE(response.ok()) << response.error().message;
  auto again = response_from_json(to_json(*response));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->tool_calls, response->tool_calls);
  EXPECT_EQ(again->usage, response->usage);
  EXPECT_EQ(dump_json(to_json(*again)), dump_json(to_json(*response)));
}

}  // namespace
}  // namespace kopt::llm::testing
