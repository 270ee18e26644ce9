#include "agent/llm/text_tools.h"

#include <gtest/gtest.h>

#include "tests/llm/contract_scenario.h"

namespace kopt::llm::testing {
namespace {

TEST(ExtractCodeTest, PrefersTheLongestBlockInTheWantedLanguage) {
  const std::string answer =
      "Here is a sketch:\n```cpp\nint x;\n```\nand the whole file:\n```c++\n#include <cmath>\n"
      "void f() {}\n```\n```python\nprint('this is a long python block, longer than both')\n```\n";
  auto code = extract_code(answer);
  ASSERT_TRUE(code.ok()) << code.error().message;
  EXPECT_EQ(*code, "#include <cmath>\nvoid f() {}\n");
}

TEST(ExtractCodeTest, AcceptsUnlabelledBlocksAndTildeFences) {
  EXPECT_EQ(*extract_code("~~~\nint y;\n~~~"), "int y;\n");
  EXPECT_EQ(*extract_code("```\nint z;\n```"), "int z;\n");
}

TEST(ExtractCodeTest, LongerFenceHoldsShorterOnes) {
  EXPECT_EQ(*extract_code("````cpp\n// ```\nint a;\n````\n"), "// ```\nint a;\n");
}

TEST(ExtractCodeTest, CutOffBlockSaysSo) {
  auto code = extract_code("```cpp\nvoid f() {\n  for (");
  ASSERT_FALSE(code.ok());
  EXPECT_NE(code.error().message.find("not closed"), std::string::npos);
}

TEST(ExtractCodeTest, NoBlockSaysSo) {
  auto code = extract_code("I think you should unroll the loop.");
  ASSERT_FALSE(code.ok());
  EXPECT_NE(code.error().message.find("no fenced code block"), std::string::npos);
}

TEST(TextToolCallsTest, ReadsToolCallBlocksAndKeepsTheProse) {
  const std::string answer =
      "Let me compile it.\n```tool_call\n{\"name\": \"compile\", \"arguments\": "
      "{\"source\": \"int main() {}\"}}\n```\n";
  auto parsed = parse_text_tool_calls(answer);
  ASSERT_EQ(parsed.calls.size(), 1u);
  EXPECT_EQ(parsed.calls[0].name, "compile");
  EXPECT_EQ(parsed.calls[0].arguments, R"({"source":"int main() {}"})");
  EXPECT_EQ(parsed.text, "Let me compile it.");
  EXPECT_EQ(parse_text_tool_calls(answer).calls[0].id, parsed.calls[0].id);
}

TEST(TextToolCallsTest, ReadsTaggedCalls) {
  auto parsed =
      parse_text_tool_calls("<tool_call>\n{\"name\": \"run\", \"arguments\": {}}\n</tool_call>");
  ASSERT_EQ(parsed.calls.size(), 1u);
  EXPECT_EQ(parsed.calls[0].name, "run");
  EXPECT_EQ(parsed.text, "");
}

TEST(TextToolCallsTest, JsonBlocksAndBareObjectsCountOnlyForOfferedTools) {
  const std::string block =
      "```json\n{\"name\": \"compile\", \"arguments\": {\"source\": \"x\"}}\n```";
  EXPECT_TRUE(parse_text_tool_calls(block).calls.empty());
  EXPECT_EQ(parse_text_tool_calls(block, {"compile"}).calls.size(), 1u);
  const std::string bare = "{\"name\": \"compile\", \"parameters\": {\"source\": \"x\"}}";
  EXPECT_TRUE(parse_text_tool_calls(bare, {"other"}).calls.empty());
  auto parsed = parse_text_tool_calls(bare, {"compile"});
  ASSERT_EQ(parsed.calls.size(), 1u);
  EXPECT_EQ(parsed.calls[0].arguments, R"({"source":"x"})");
}

TEST(TextToolCallsTest, AnswersWithoutCallsAreLeftAlone) {
  const std::string answer = "```cpp\nint main() {}\n```";
  auto parsed = parse_text_tool_calls(answer, {"compile"});
  EXPECT_TRUE(parsed.calls.empty());
  EXPECT_EQ(parsed.text, answer);
}

TEST(TextToolsRequestTest, ToolsMoveIntoTheSystemPromptAndHistoryBecomesText) {
  ChatRequest text = to_text_tools(tool_result_request());
  EXPECT_TRUE(text.tools.empty());
  EXPECT_NE(text.system.find("You are terse."), std::string::npos);
  EXPECT_NE(text.system.find("```tool_call"), std::string::npos);
  EXPECT_NE(text.system.find("- compile: Compiles a kernel"), std::string::npos);
  ASSERT_EQ(text.messages.size(), 3u);
  EXPECT_TRUE(text.messages[1].tool_calls.empty());
  EXPECT_NE(text.messages[1].content.find("\"name\":\"compile\""), std::string::npos);
  EXPECT_EQ(text.messages[2].role, Role::user);
  EXPECT_EQ(text.messages[2].content, "Result of tool call compile (call_0):\nbuild ok");
}

// Answers every request with a fixed text and remembers the last request.
class CannedBackend : public LlmBackend {
 public:
  explicit CannedBackend(std::string text) : text_(std::move(text)) {}
  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions&) override {
    last = request;
    ChatResponse response;
    response.text = text_;
    return response;
  }
  using LlmBackend::chat;
  std::string name() const override { return "canned"; }
  bool native_tools() const override { return false; }
  ChatRequest last;

 private:
  std::string text_;
};

TEST(TextToolBackendTest, TurnsTextCallsIntoToolCalls) {
  auto canned =
      std::make_unique<CannedBackend>("```tool_call\n{\"name\":\"compile\",\"arguments\":{}}\n```");
  CannedBackend* inner = canned.get();
  auto backend = with_text_tools(std::move(canned));
  auto response = backend->chat(tool_request());
  ASSERT_TRUE(response.ok());
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->finish_reason, FinishReason::tool_calls);
  EXPECT_TRUE(inner->last.tools.empty());
  EXPECT_FALSE(backend->native_tools());
  EXPECT_EQ(backend->name(), "canned");
}

TEST(TextToolBackendTest, WithoutToolsTheTextIsUntouched) {
  auto backend =
      with_text_tools(std::make_unique<CannedBackend>("```tool_call\n{\"name\":\"x\"}\n```"));
  auto response = backend->chat(greeting_request());
  ASSERT_TRUE(response.ok());
  EXPECT_TRUE(response->tool_calls.empty());
}

}  // namespace
}  // namespace kopt::llm::testing
