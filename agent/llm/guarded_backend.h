// What every backend's answers pass through before kopt uses, records or prints them: secrets
// are removed (keys a server or a command echoes, keys the model quotes) and an answer longer
// than the request's max_tokens could produce is cut, saying so. make_backend() wraps every
// backend in it.
#pragma once

#include <cstddef>
#include <memory>

#include "agent/llm/backend.h"

namespace kopt::llm {

/// The most bytes of text (or of one tool call's arguments) kept from an answer to a request
/// for `max_tokens` tokens: 16 bytes a token, and at least 64 KiB.
size_t answer_text_cap(int max_tokens);

/// The most bytes read from a server or a command for one answer (its JSON or its stream of
/// events around the text), so that memory stays bounded whatever the other side sends.
size_t answer_wire_cap(int max_tokens);

/// `response` redacted and cut to the caps for `max_tokens`.
ChatResponse guard_response(ChatResponse response, int max_tokens);

/// Wraps `inner`; chat() answers are guarded and error messages redacted.
std::unique_ptr<LlmBackend> guarded(std::unique_ptr<LlmBackend> inner);

}  // namespace kopt::llm
