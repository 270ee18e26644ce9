// The model-answer parsers: fenced code blocks and tool calls written as text.
#include "agent/llm/text_tools.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = kopt::fuzz::text_of(data, size);
  kopt::llm::find_code_blocks(text);
  (void)kopt::llm::extract_code(text);
  const auto calls = kopt::llm::parse_text_tool_calls(text, {"submit", "read_file", "compile"});
  for (const auto& call : calls.calls) (void)kopt::llm::render_tool_call(call);
  return 0;
}
