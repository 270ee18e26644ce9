// The server-sent-events reader, fed in chunks split where the input says, and the OpenAI and
// Anthropic stream assemblers behind it.
#include <nlohmann/json.hpp>

#include "agent/llm/api_adapter.h"
#include "agent/llm/sse.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kopt::llm;
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 64;  // The first byte picks the chunk length.
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const auto openai = make_openai_adapter({"http://127.0.0.1:1", "m", nullptr});
  static const auto anthropic = make_anthropic_adapter({"http://127.0.0.1:1", "m", nullptr});
  for (const auto* adapter : {openai.get(), anthropic.get()}) {
    SseParser parser;
    auto assembler = adapter->assembler([](std::string_view) {});
    bool failed = false;
    auto take = [&](const std::vector<SseEvent>& events) {
      for (const auto& event : events)
        if (!failed && !assembler->add(event)) failed = true;
    };
    for (size_t at = 0; at < text.size(); at += chunk) take(parser.feed(text.substr(at, chunk)));
    take(parser.finish());
    if (!failed && parser.error().empty()) (void)assembler->finish();
  }
  return 0;
}
