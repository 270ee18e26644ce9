// One question to a model, as the `llm` methods of `kopt roofline` and `kopt predict` ask it:
// a system and a user prompt, temperature 0, no tools, one answer.
#pragma once

#include <string>

#include "agent/llm/chat.h"
#include "util/result.h"

namespace kopt::cli {

struct Answer {
  std::string text;
  std::string model;  ///< The backend's name.
};

/// Sends the prompts to the backend `spec` names; an Error when it cannot be made or fails.
Result<Answer> ask_one_question(const std::string& spec, const std::string& system,
                                const std::string& user);

}  // namespace kopt::cli
