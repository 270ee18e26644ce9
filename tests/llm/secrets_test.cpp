#include "agent/llm/secrets.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>

#include "agent/llm/http_transport.h"

namespace kopt::llm {
namespace {

TEST(ApiKeyTest, ComesFromTheEnvironmentOnly) {
  EXPECT_FALSE(ApiKey::from_env("OPENAI_API_KEY", fixed_environment({})).has_value());
  auto key =
      ApiKey::from_env("OPENAI_API_KEY", fixed_environment({{"OPENAI_API_KEY", "sk-live-123"}}));
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->variable(), "OPENAI_API_KEY");
  EXPECT_EQ(key->reveal(), "sk-live-123");
}

TEST(ApiKeyTest, HoldingAKeyMakesTheProcessUndumpable) {
  auto key = ApiKey::from_env("K", fixed_environment({{"K", "secret"}}));
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0);
}

TEST(ApiKeyTest, RedactsEveryOccurrence) {
  ApiKey key("K", "abc-secret-xyz");
  EXPECT_EQ(key.redact("x abc-secret-xyz y abc-secret-xyz"), "x [redacted] y [redacted]");
  EXPECT_EQ(ApiKey("K", "").redact("unchanged"), "unchanged");
}

TEST(RedactTest, HeadersThatCarrySecretsAreHidden) {
  EXPECT_EQ(redact_header("Authorization", "Bearer sk-1"), "[redacted]");
  EXPECT_EQ(redact_header("x-api-key", "k"), "[redacted]");
  EXPECT_EQ(redact_header("Proxy-Authorization", "Basic x"), "[redacted]");
  EXPECT_EQ(redact_header("anthropic-version", "2023-06-01"), "2023-06-01");
}

TEST(RedactTest, BearerAndSkTokensInTextAreHidden) {
  EXPECT_EQ(redact_tokens("Incorrect API key provided: sk-proj-AbC_123."),
            "Incorrect API key provided: [redacted].");
  EXPECT_EQ(redact_tokens("got Bearer abc.def from you"), "got Bearer [redacted] from you");
  EXPECT_EQ(redact_tokens("a risk-free task"), "a risk-free task");
}

TEST(RedactTest, RequestDescriptionsRedactHeaders) {
  HttpRequest request{"POST",
                      "http://h/v1",
                      {{"Authorization", "Bearer sk-zzz"}, {"Content-Type", "application/json"}},
                      "{}"};
  const std::string text = request.describe();
  EXPECT_EQ(text.find("sk-zzz"), std::string::npos);
  EXPECT_NE(text.find("Content-Type: application/json"), std::string::npos);
}

}  // namespace
}  // namespace kopt::llm
