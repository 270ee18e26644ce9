// One role's exchange with the model: the request goes out with the role's tools, tool calls
// are validated and run (each recorded), results go back, until the model answers without a
// tool call, submits a kernel, or uses up its rounds. Bad calls get a clear message back and a
// bounded number of chances.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agent/llm/chat.h"
#include "agent/loop/services.h"
#include "util/result.h"

namespace kopt {

/// What a conversation produced.
struct Turn {
  std::string text;                      ///< The model's last answer.
  std::optional<std::string> submitted;  ///< A kernel file handed in through submit.
  std::string summary;                   ///< submit's one-line summary.
  int tool_calls = 0;
  int invalid_calls = 0;
  /// Set when the run must stop (budget spent, model unreachable, replay diverged).
  std::optional<Error> stop;
  /// Why: "budget" (a stopping rule), "interrupted" (the model failed; resume retries the
  /// call), "failed" (the model refused for good: a bad key, an unknown model) or "error" (an
  /// event could not be written or diverged from the record).
  std::string stop_rule = "interrupted";
};

class Conversation {
 public:
  Conversation(LoopServices& services, std::string role, int iteration,
               std::vector<std::string> tools, int max_rounds);

  /// Runs the exchange from a system prompt and a first user message.
  Turn run(const std::string& system, const std::string& user);
  /// Continues the same exchange with another user message (a reminder).
  Turn follow_up(const std::string& user);

 private:
  Turn exchange();
  bool handle_calls(const llm::ChatResponse& response, Turn& turn);
  std::string dispatch(const llm::ToolCall& call, Turn& turn);
  std::optional<Error> call_model(llm::ChatResponse& response, std::string& rule);

  LoopServices& s_;
  std::string role_;
  int iteration_;
  std::vector<std::string> tools_;
  int max_rounds_;
  llm::ChatRequest request_;
};

/// The kernel file in a text answer (a fenced block), if any.
std::optional<std::string> code_in_text(const std::string& text);

}  // namespace kopt
