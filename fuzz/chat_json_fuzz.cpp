// Model answers as JSON: recorded responses and requests, tool-call arguments, and the bodies of
// the OpenAI and Anthropic APIs.
#include <nlohmann/json.hpp>

#include "agent/llm/api_adapter.h"
#include "agent/llm/chat_json.h"
#include "fuzz/fuzz_input.h"
#include "util/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kopt::llm;
  const std::string text = kopt::fuzz::text_of(data, size);
  const kopt::Json json = kopt::parse_json_or_discarded(text);
  if (!json.is_discarded()) {
    if (auto response = response_from_json(json)) (void)kopt::dump_json(to_json(*response));
    if (auto request = request_from_json(json)) (void)request_hash(*request);
  }
  const ToolCall call = make_tool_call("id", "submit", text);
  (void)parse_arguments(call);
  static const auto openai = make_openai_adapter({"http://127.0.0.1:1", "m", nullptr});
  static const auto anthropic = make_anthropic_adapter({"http://127.0.0.1:1", "m", nullptr});
  for (const auto* adapter : {openai.get(), anthropic.get()}) {
    (void)adapter->parse(text);
    (void)adapter->error_message(text);
  }
  return 0;
}
