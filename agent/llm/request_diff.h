// Explaining why a request does not match a recorded one: the first field that differs, with
// the text around the first differing character on both sides.
#pragma once

#include <cstddef>
#include <string>

#include "agent/llm/chat.h"

namespace kopt::llm {

/// "message 3 (user) differs at character 120: recorded '...' vs now '...'", or "" when the
/// requests are equal. Fields are compared in the order the model reads them.
std::string first_difference(const ChatRequest& recorded, const ChatRequest& now);

/// How alike two requests are: the length of the common prefix of their canonical forms.
size_t similarity(const ChatRequest& a, const ChatRequest& b);

/// "differs at character N: recorded '...' vs now '...'" for two texts ("" when equal); the
/// excerpts never cut a UTF-8 sequence and show line breaks as \n.
std::string describe_text_difference(const std::string& recorded, const std::string& now);

}  // namespace kopt::llm
