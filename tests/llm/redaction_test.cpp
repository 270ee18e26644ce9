// Secrets stay out of everything kopt records or prints, whatever the backend: the guarded
// backend redacts answers and errors, and redact_secrets knows the keys this process read and
// the secret-looking variables of its environment.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <optional>

#include "agent/llm/backend_factory.h"
#include "agent/llm/guarded_backend.h"
#include "agent/llm/secrets.h"

namespace kopt::llm {

namespace {

// A backend that answers or fails with fixed text.
class EchoBackend : public LlmBackend {
 public:
  EchoBackend(ChatResponse answer, std::optional<Error> error = {})
      : answer_(std::move(answer)), error_(std::move(error)) {}
  Result<ChatResponse> chat(const ChatRequest&, const ChatOptions&) override {
    if (error_) return *error_;
    return answer_;
  }
  std::string name() const override { return "echo"; }
  bool native_tools() const override { return true; }

 private:
  ChatResponse answer_;
  std::optional<Error> error_;
};

}  // namespace

TEST(RedactionTest, AKeyReadFromTheEnvironmentIsRedactedEverywhere) {
  auto key = ApiKey::from_env("X", fixed_environment({{"X", "plainkey-9f8e7d6c5b"}}));
  ASSERT_TRUE(key);
  EXPECT_EQ(redact_secrets("rejected plainkey-9f8e7d6c5b!"), "rejected [redacted]!");
}

TEST(RedactionTest, SecretLookingEnvironmentVariablesAreRedacted) {
  ::setenv("KOPT_TEST_SERVICE_TOKEN", "tok-abcdefgh-12345", 1);  // Read before first use.
  EXPECT_EQ(redact_secrets("using tok-abcdefgh-12345 now").find("tok-abcdefgh"), std::string::npos);
}

TEST(RedactionTest, JsonStringsAndKeysAreRedacted) {
  const nlohmann::json doc = {{"text", "Bearer abc.def-ghi"}, {"list", {"sk-12345678901"}}};
  const nlohmann::json clean = redact_json(doc);
  EXPECT_EQ(clean["text"], "Bearer [redacted]");
  EXPECT_EQ(clean["list"][0], "[redacted]");
}

TEST(RedactionTest, TheGuardRedactsAnErrorBody) {
  auto backend = guarded(std::make_unique<EchoBackend>(
      ChatResponse{}, Error{"HTTP 401: Incorrect key Bearer sk-live-0000000000", true}));
  auto answer = backend->chat(ChatRequest{});
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.error().message, "HTTP 401: Incorrect key Bearer [redacted]");
  EXPECT_TRUE(answer.error().permanent);
}

TEST(RedactionTest, TheGuardRedactsModelTextToolArgumentsAndRaw) {
  ChatResponse quoted;
  quoted.text = "the key is sk-quoted-1234567890";
  quoted.tool_calls.push_back({"c1", "read_file", R"({"path":"sk-path-1234567890"})", ""});
  quoted.raw = R"({"echo":"sk-raw-1234567890"})";
  auto backend = guarded(std::make_unique<EchoBackend>(quoted));
  auto answer = backend->chat(ChatRequest{});
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->text, "the key is [redacted]");
  EXPECT_EQ(answer->tool_calls[0].arguments, R"({"path":"[redacted]"})");
  EXPECT_EQ(answer->raw.find("sk-raw"), std::string::npos);
}

TEST(RedactionTest, ExecStderrIsRedactedThroughTheFactory) {
  ::setenv("KOPT_TEST_EXEC_SECRET", "exec-secret-value-31337", 1);
  auto backend =
      make_backend("exec:echo \"denied: $KOPT_TEST_EXEC_SECRET Bearer sk-e-12345678\" >&2; exit 1");
  ASSERT_TRUE(backend);
  auto answer = (*backend)->chat(ChatRequest{});
  ASSERT_FALSE(answer);
  EXPECT_NE(answer.error().message.find("denied: [redacted] Bearer [redacted]"), std::string::npos)
      << answer.error().message;
}

TEST(AnswerCapTest, TextBeyondWhatMaxTokensCanProduceIsCutAndSaysSo) {
  ChatResponse huge;
  huge.text = std::string(1 << 20, 'x');
  ChatResponse cut = guard_response(huge, 100);
  EXPECT_EQ(cut.text.size(), answer_text_cap(100));
  EXPECT_EQ(cut.finish_reason, FinishReason::length);
  EXPECT_NE(cut.finish_detail.find("cut by kopt"), std::string::npos);
  ChatResponse small;
  small.text = "fine";
  EXPECT_EQ(guard_response(small, 100).finish_detail, "");
}

}  // namespace kopt::llm
