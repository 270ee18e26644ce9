// manual — a person answers each prompt. For call N (numbered on from the files already in the
// folder) kopt writes, in the manual folder ($KOPT_MANUAL_DIR, `manual:DIR`, else ./kopt-manual):
//   prompt-NNNN.md     the conversation as the operator should read it (also printed)
//   request-NNNN.json  the full request (chat_json.h's form)
// and waits for the answer, whichever comes first:
//   answer-NNNN.md     a file the operator saves (read once it stops changing), or
//   the terminal       lines typed on standard input, ended by a line holding only "." or EOF.
// Tools reach the operator through the text convention of text_tools.h (```tool_call blocks).
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "agent/llm/backend.h"

namespace kopt::llm {

/// Where the prompts go and the answers come from.
struct ManualConfig {
  std::filesystem::path dir = "kopt-manual";
  int input_fd = 0;         ///< The operator's typing; -1: files only.
  std::FILE* out = stderr;  ///< Where the prompt is shown.
  std::chrono::milliseconds poll{250};
  std::chrono::milliseconds timeout{0};  ///< 0: wait as long as it takes.
};

/// An operator as the model.
class ManualBackend : public LlmBackend {
 public:
  explicit ManualBackend(ManualConfig config);

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override;
  using LlmBackend::chat;
  std::string name() const override { return "manual:" + config_.dir.string(); }
  bool native_tools() const override { return false; }
  /// Creates the folder.
  Status prepare() override;

 private:
  int next_number() const;
  Result<std::string> wait_for_answer(const std::filesystem::path& answer_file);
  bool read_typed(std::string& answer);

  ManualConfig config_;
  std::string typed_;  ///< Typed text not yet ended by "." or EOF.
  bool input_open_ = true;
};

/// The conversation of a request as Markdown for a person.
std::string render_prompt(const ChatRequest& request);

}  // namespace kopt::llm
