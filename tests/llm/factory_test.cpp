#include "agent/llm/backend_factory.h"

#include <gtest/gtest.h>

#include "tests/llm/contract_scenario.h"

namespace kopt::llm::testing {
namespace {

TEST(BackendSpecTest, SplitsAtTheFirstColon) {
  auto spec = parse_backend_spec("exec:llm -m x:y");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->kind, "exec");
  EXPECT_EQ(spec->argument, "llm -m x:y");
  EXPECT_EQ(parse_backend_spec("local")->argument, "");
  EXPECT_EQ(parse_backend_spec("manual:/tmp/m")->argument, "/tmp/m");
}

TEST(BackendSpecTest, BadSpecsListTheAcceptedForms) {
  auto unknown = parse_backend_spec("gpt-4o");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(
      unknown.error().message,
      "unknown LLM spec 'gpt-4o': expected openai:MODEL, anthropic:MODEL, local, replay:RUN_DIR, "
      "exec:COMMAND or manual");
  EXPECT_NE(parse_backend_spec("openai:").error().message.find("needs a value"), std::string::npos);
  EXPECT_FALSE(parse_backend_spec("replay").ok());
  EXPECT_FALSE(parse_backend_spec("").ok());
}

TEST(BackendFactoryTest, HostedApisNeedTheirKey) {
  auto openai = make_backend("openai:gpt-4o-mini", {fixed_environment({})});
  ASSERT_FALSE(openai.ok());
  EXPECT_EQ(openai.error().message,
            "OPENAI_API_KEY is not set (keys are read from the environment only)");
  EXPECT_NE(make_backend("anthropic:claude", {fixed_environment({})})
                .error()
                .message.find("ANTHROPIC_API_KEY"),
            std::string::npos);
}

TEST(BackendFactoryTest, SelfHostedServersNeedNoKey) {
  auto backend = make_backend("openai:llama",
                              {fixed_environment({{"OPENAI_BASE_URL", "http://127.0.0.1:1/v1/"}})});
  ASSERT_TRUE(backend.ok()) << backend.error().message;
  EXPECT_EQ((*backend)->name(), "openai:llama");
  EXPECT_TRUE((*backend)->native_tools());
}

TEST(BackendFactoryTest, NamesFollowTheSpec) {
  EXPECT_EQ(make_backend("replay:runs/x")->get()->name(), "replay:runs/x");
  EXPECT_EQ(make_backend("exec:cat")->get()->name(), "exec:cat");
  EXPECT_EQ(make_backend("manual:/tmp/m")->get()->name(), "manual:/tmp/m");
  EXPECT_FALSE(make_backend("manual")->get()->native_tools());
}

TEST(BackendFactoryTest, ManualFolderComesFromTheEnvironment) {
  auto backend = make_backend("manual", {fixed_environment({{"KOPT_MANUAL_DIR", "/tmp/ops"}})});
  EXPECT_EQ((*backend)->name(), "manual:/tmp/ops");
}

TEST(BackendFactoryTest, TextToolsCanBeForced) {
  auto backend = make_backend("exec:cat", {fixed_environment({{"KOPT_LLM_TOOLS", "text"}})});
  EXPECT_FALSE((*backend)->native_tools());
}

TEST(BackendFactoryTest, TimeoutsComeFromTheEnvironment) {
  FakeApiServer server;
  Reply slow{200, openai_json({kGreeting, {}, "", 1, 1, "m"})};
  slow.delay_before = std::chrono::milliseconds(2000);
  server.enqueue(slow);
  BackendOptions options;
  options.env =
      fixed_environment({{"OPENAI_BASE_URL", server.url() + "/v1"}, {"KOPT_LLM_TIMEOUT_S", "0.2"}});
  auto response = make_backend("openai:m", options)->get()->chat(greeting_request());
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("no answer within 0.2 s"), std::string::npos)
      << response.error().message;
}

}  // namespace
}  // namespace kopt::llm::testing
