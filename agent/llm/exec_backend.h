// exec:COMMAND — any command-line LLM tool as a backend. The command runs through `sh -c` with
// the request JSON (chat_json.h's form) on its standard input and must print one response JSON
// ({"text": ...} at least; "tool_calls", "finish_reason", "usage", "model" optional) on its
// standard output. Its standard error is kept apart and quoted (redacted) when it fails; what it
// prints is capped (guarded_backend.h), and so is every file it writes (64 MiB).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "agent/llm/backend.h"
#include "sandbox/process.h"

namespace kopt::llm {

/// How to run the command.
struct ExecConfig {
  std::string command;
  std::chrono::milliseconds timeout{600000};
  std::shared_ptr<ProcessRunner> runner;  ///< Null: LocalProcessRunner.
};

/// Pipes each request through a command.
class ExecBackend : public LlmBackend {
 public:
  explicit ExecBackend(ExecConfig config);

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override;
  using LlmBackend::chat;
  std::string name() const override { return "exec:" + config_.command; }
  bool native_tools() const override { return true; }

 private:
  Error failed(const std::string& why) const;

  ExecConfig config_;
};

}  // namespace kopt::llm
