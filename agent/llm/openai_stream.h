// Pieces of the OpenAI chat completions format shared by the adapter and its stream assembler.
#pragma once

#include <memory>
#include <string>

#include "agent/llm/api_adapter.h"
#include "util/json.h"

namespace kopt::llm {

/// Maps "stop", "length", "tool_calls", ... to FinishReason; servers that say "stop" after a
/// tool call (some do) get tool_calls.
FinishReason openai_finish_reason(const std::string& detail, bool has_tool_calls);

/// {"prompt_tokens","completion_tokens"} as Usage.
Usage openai_usage(const Json& usage);

/// Message content as text: a string, or the text parts of an array of parts.
std::string openai_content(const Json& content);

/// Reassembles chat.completion.chunk events, tool-call argument fragments included.
std::unique_ptr<StreamAssembler> make_openai_assembler(TextSink on_text);

}  // namespace kopt::llm
