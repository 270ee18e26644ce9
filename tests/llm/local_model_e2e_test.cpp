// A real chat completion against the installed local model (scripts/setup-local-model.sh);
// skipped, with the reason, when none is installed.
#include <gtest/gtest.h>

#include "agent/llm/backend_factory.h"
#include "agent/llm/local_backend.h"
#include "agent/llm/text_tools.h"
#include "tests/llm/contract_scenario.h"

namespace kopt::llm::testing {
namespace {

class LocalModelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto path = local_model_config_path();
    if (!std::filesystem::exists(path)) {
      skip_reason_ =
          "no local model installed at " + path.string() + " (run scripts/setup-local-model.sh)";
      return;
    }
    auto made = make_backend("local");
    if (!made) {
      skip_reason_ = made.error().message;
      return;
    }
    backend_ = std::move(*made);
  }
  static void TearDownTestSuite() { backend_.reset(); }
  void SetUp() override {
    if (!skip_reason_.empty()) GTEST_SKIP() << skip_reason_;
  }

  static inline std::unique_ptr<LlmBackend> backend_;
  static inline std::string skip_reason_;
};

TEST_F(LocalModelTest, AnswersAChatCompletion) {
  ChatRequest request;
  request.system = "You answer with one word.";
  request.messages = {user_message("What is the opposite of 'slow'? One word.")};
  request.temperature = 0;
  request.seed = 1;
  request.max_tokens = 8;
  auto response = backend_->chat(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_FALSE(response->text.empty());
  EXPECT_GT(response->usage.input_tokens, 0);
  EXPECT_GT(response->usage.output_tokens, 0);
  EXPECT_EQ(response->model.rfind("local:", 0), 0u);
  std::printf("local model: '%s' in %.2f s (%lld in + %lld out tokens)\n", response->text.c_str(),
              response->latency_seconds, static_cast<long long>(response->usage.input_tokens),
              static_cast<long long>(response->usage.output_tokens));
}

TEST_F(LocalModelTest, StreamsTheSameWayItAnswers) {
  ChatRequest request;
  request.messages = {user_message("Count from 1 to 5, separated by spaces.")};
  request.temperature = 0;
  request.max_tokens = 16;
  std::string streamed;
  auto response =
      backend_->chat(request, {true, [&](std::string_view delta) { streamed += delta; }});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(streamed, response->text);
  EXPECT_NE(response->text.find('3'), std::string::npos) << response->text;
}

TEST_F(LocalModelTest, WritesCodeInAFencedBlock) {
  ChatRequest request;
  request.system = "You are a C++ programmer. Answer with one ```cpp code block only.";
  request.messages = {
      user_message("Write a C++ function `int add(int a, int b)` that returns a + b.")};
  request.temperature = 0;
  request.max_tokens = 128;
  auto response = backend_->chat(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  auto code = extract_code(response->text);
  ASSERT_TRUE(code.ok()) << code.error().message << "\n" << response->text;
  EXPECT_NE(code->find("add"), std::string::npos);
}

}  // namespace
}  // namespace kopt::llm::testing
