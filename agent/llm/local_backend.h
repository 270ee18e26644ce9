// local — a small model behind a llama.cpp-style OpenAI-compatible server that kopt starts on
// loopback, described by <kopt_home()>/third_party/models/local-model.json ($KOPT_LOCAL_MODEL
// overrides; scripts/setup-local-model.sh writes it):
//   {"format": "kopt-local-model/1",
//    "server": ["llama-server", "-m", "{model}", "--port", "{port}", ...],
//    "model_path": "model.gguf", "model_name": "...", "context": 4096,
//    "tool_calling": false, "ready_timeout_s": 300}
// Placeholders in "server": {model}, {port}, {host}, {context}, {threads}. Relative paths are
// relative to the file's folder. Without native tool calling, tools go through text_tools.h.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "agent/llm/environment.h"
#include "agent/llm/http_backend.h"
#include "agent/llm/server_process.h"
#include "util/host_cpu.h"

namespace kopt::llm {

/// A local-model.json file.
struct LocalModelConfig {
  std::filesystem::path file;
  std::vector<std::string> server;
  std::filesystem::path model_path;
  std::string model_name;
  int context = 4096;
  bool tool_calling = false;
  std::chrono::seconds ready_timeout{300};

  /// Reads and checks the file; a missing file's Error says to run the setup script. A file
  /// whose "cpu" (the identity of the CPU its server was built on) is not `host_cpu` is
  /// refused: that server may use instructions this CPU lacks.
  static Result<LocalModelConfig> load(const std::filesystem::path& file,
                                       const std::string& host_cpu = host_cpu_identity());
  /// The server's argv with the placeholders filled in.
  std::vector<std::string> server_argv(int port) const;
};

/// $KOPT_LOCAL_MODEL, else <kopt_home()>/third_party/models/local-model.json.
std::filesystem::path local_model_config_path(const EnvLookup& env = process_environment());

/// Starts the server on first use, talks to it in the OpenAI format, stops it when destroyed.
class LocalBackend : public LlmBackend {
 public:
  /// `http` supplies timeouts, retries and seams; its name and key are set here.
  LocalBackend(LocalModelConfig config, HttpBackendConfig http);
  ~LocalBackend() override;

  Result<ChatResponse> chat(const ChatRequest& request, const ChatOptions& options) override;
  using LlmBackend::chat;
  std::string name() const override { return "local:" + config_.model_name; }
  bool native_tools() const override { return config_.tool_calling; }
  /// Starts the server and waits until it answers /health (or /v1/models).
  Status prepare() override;
  /// Seconds the last start took (0 before).
  double startup_seconds() const { return startup_seconds_; }
  /// The base URL of the running server ("" before).
  const std::string& base_url() const { return base_url_; }

 private:
  Status start();
  Status wait_until_ready(HttpTransport& transport);
  Error server_failed(const std::string& what) const;

  LocalModelConfig config_;
  HttpBackendConfig http_;
  std::filesystem::path log_dir_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpChatBackend> client_;
  std::string base_url_;
  double startup_seconds_ = 0;
  Status started_;
};

}  // namespace kopt::llm
