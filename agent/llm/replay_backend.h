// replay:RUN_DIR — answers each request with the response recorded for the same request in
// RUN_DIR/events.jsonl ({"type":"model_call","request":...,"response":...} lines). A request
// that recurs gets its recorded responses in order; one never recorded is an Error showing its
// first difference from the nearest recorded request.
#pragma once

#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "agent/llm/backend.h"

namespace kopt::llm {

/// Serves the model calls of a recorded run.
class ReplayBackend : public LlmBackend {
 public:
  explicit ReplayBackend(std::filesystem::path run_dir);

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override;
  using LlmBackend::chat;
  std::string name() const override { return "replay:" + run_dir_.string(); }
  bool native_tools() const override { return true; }
  /// Reads and checks events.jsonl (once).
  Status prepare() override;
  /// How many model calls the recording holds (after prepare()).
  size_t recorded_calls() const { return calls_.size(); }

 private:
  // One recorded model call.
  struct Recorded {
    ChatRequest request;
    ChatResponse response;
    size_t line = 0;
  };

  Status load();
  Error not_recorded(const ChatRequest& request, const std::string& hash) const;

  std::filesystem::path run_dir_;
  std::vector<Recorded> calls_;
  std::map<std::string, std::deque<size_t>> unused_;  ///< By request hash, in recorded order.
  std::map<std::string, std::vector<size_t>> all_;
  bool prepared_ = false;
  Status loaded_;
};

}  // namespace kopt::llm
