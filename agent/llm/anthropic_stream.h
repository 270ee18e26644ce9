// Pieces of the Anthropic Messages format shared by the adapter and its stream assembler.
#pragma once

#include <memory>
#include <string>

#include "agent/llm/api_adapter.h"
#include "util/json.h"

namespace kopt::llm {

/// Maps "end_turn", "max_tokens", "tool_use", ... to FinishReason.
FinishReason anthropic_finish_reason(const std::string& stop_reason);

/// The message of an {"type":"error","error":{"type","message"}} object, or "".
std::string anthropic_error(const Json& json);

/// Reassembles message_start / content_block_* / message_delta / message_stop events, text
/// deltas and tool input fragments (input_json_delta) included.
std::unique_ptr<StreamAssembler> make_anthropic_assembler(TextSink on_text);

}  // namespace kopt::llm
