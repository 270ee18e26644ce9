#include "agent/llm/local_backend.h"

#include <nlohmann/json.hpp>
#include <thread>

#include "agent/llm/json_read.h"
#include "sandbox/process.h"
#include "util/files.h"
#include "util/paths.h"
#include "util/timing_lease.h"

namespace kopt::llm {

namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

fs::path beside(const fs::path& file, const std::string& path) {
  fs::path p(path);
  return p.is_absolute() ? p : file.parent_path() / p;
}

// The server's environment: ours, without API keys (it needs none).
std::map<std::string, std::string> server_environment() {
  auto env = current_environment();
  for (auto it = env.begin(); it != env.end();)
    it = it->first.find("API_KEY") != std::string::npos ? env.erase(it) : std::next(it);
  return env;
}

}  // namespace

fs::path local_model_config_path(const EnvLookup& env) {
  if (auto path = env("KOPT_LOCAL_MODEL")) return *path;
  return kopt_home() / "third_party" / "models" / "local-model.json";
}

Result<LocalModelConfig> LocalModelConfig::load(const fs::path& file, const std::string& host_cpu) {
  if (!fs::exists(file))
    return fail("no local model: " + file.string() +
                " does not exist (run scripts/setup-local-model.sh, or set KOPT_LOCAL_MODEL)");
  auto json = read_json_file(file);
  if (!json) return json.error();
  const std::string where = file.string();
  if (string_at(*json, "format") != "kopt-local-model/1")
    return fail(where + ": format must be \"kopt-local-model/1\"");
  if (const std::string built_for = string_at(*json, "cpu");
      !built_for.empty() && built_for != host_cpu)
    return fail(where + ": its llama-server was built for another CPU (" +
                built_for.substr(0, built_for.find('|', built_for.find('|') + 1)) +
                "); run scripts/setup-local-model.sh to build one for this machine");
  LocalModelConfig config;
  config.file = file;
  for (const auto& arg : array_at(*json, "server"))
    if (arg.is_string()) config.server.push_back(arg.get<std::string>());
  if (config.server.empty()) return fail(where + ": \"server\" must be a non-empty argv list");
  if (config.server.front().find('/') != std::string::npos)
    config.server.front() = beside(file, config.server.front()).string();
  config.model_path = beside(file, string_at(*json, "model_path"));
  if (string_at(*json, "model_path").empty() || !fs::exists(config.model_path))
    return fail(where + ": model file '" + config.model_path.string() + "' not found");
  config.model_name = string_at(*json, "model_name");
  if (config.model_name.empty()) config.model_name = config.model_path.stem().string();
  config.context = static_cast<int>(int_at(*json, "context", config.context));
  if (const Json* tools = member(*json, "tool_calling"); tools && tools->is_boolean())
    config.tool_calling = tools->get<bool>();
  config.ready_timeout = std::chrono::seconds(int_at(*json, "ready_timeout_s", 300));
  return config;
}

std::vector<std::string> LocalModelConfig::server_argv(int port) const {
  std::vector<std::string> argv = server;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (auto& arg : argv) {
    replace_all(arg, "{model}", model_path.string());
    replace_all(arg, "{port}", std::to_string(port));
    replace_all(arg, "{host}", "127.0.0.1");
    replace_all(arg, "{context}", std::to_string(context));
    replace_all(arg, "{threads}", std::to_string(threads));
  }
  return argv;
}

LocalBackend::LocalBackend(LocalModelConfig config, HttpBackendConfig http)
    : config_(std::move(config)), http_(std::move(http)) {
  http_.name = name();
  http_.key = nullptr;
  http_.native_tools = config_.tool_calling;
  if (!http_.transport) http_.transport = std::make_shared<CurlTransport>();
  started_ = fail("not started");
}

LocalBackend::~LocalBackend() {
  client_.reset();
  server_.reset();
  if (!log_dir_.empty()) {
    std::error_code ec;
    fs::remove_all(log_dir_, ec);
  }
}

Status LocalBackend::prepare() {
  if (!server_ || !server_->running()) started_ = start();
  return started_;
}

Result<ChatResponse> LocalBackend::chat(const ChatRequest& request, const ChatOptions& options) {
  if (auto status = prepare(); !status) return status.error();
  // The server's generation loads the CPUs: beside other kopts' work, never during their timing.
  const TimingLease work("kopt: local model answering", -1, LeaseKind::work);
  auto response = client_->chat(request, options);
  if (!response && !server_->running()) return server_failed("died during a request");
  if (response) response->model = name();
  return response;
}

Status LocalBackend::start() {
  const auto begin = Clock::now();
  server_.reset();
  auto port = free_loopback_port();
  if (!port) return port.error();
  if (log_dir_.empty()) {
    remove_orphaned_dirs(fs::temp_directory_path(), "kopt-local-model-");
    auto dir = make_unique_dir(fs::temp_directory_path(), "kopt-local-model-");
    if (!dir) return dir.error();
    log_dir_ = *dir;
  }
  auto server = ServerProcess::start(
      {config_.server_argv(*port), server_environment(), log_dir_ / "server.log"});
  if (!server) return fail("local model server: " + server.error().message);
  server_ = std::move(*server);
  base_url_ = "http://127.0.0.1:" + std::to_string(*port);
  if (auto ready = wait_until_ready(*http_.transport); !ready) {
    server_.reset();
    return ready;
  }
  client_ = std::make_unique<HttpChatBackend>(
      http_, make_openai_adapter({base_url_ + "/v1", config_.model_name, nullptr}));
  startup_seconds_ = std::chrono::duration<double>(Clock::now() - begin).count();
  return {};
}

Status LocalBackend::wait_until_ready(HttpTransport& transport) {
  const auto deadline = Clock::now() + config_.ready_timeout;
  const HttpTimeouts quick{std::chrono::milliseconds(1000), std::chrono::milliseconds(5000),
                           std::chrono::milliseconds(5000), std::chrono::milliseconds(10000)};
  std::string path = "/health";
  while (Clock::now() < deadline) {
    if (!server_->running())
      return server_failed("exited while starting (" + server_->status() + ")");
    const HttpResponse response = transport.send({"GET", base_url_ + path, {}, ""}, quick, {});
    if (response.ok()) return {};
    if (response.status == 404 && path == "/health") path = "/v1/models";  // Not llama.cpp.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return server_failed("did not become ready within " +
                       std::to_string(config_.ready_timeout.count()) + " s");
}

Error LocalBackend::server_failed(const std::string& what) const {
  std::string message = "the local model server (" + config_.server.front() + ") " + what;
  if (server_) {
    const std::string output = server_->output_tail(1500);
    message += output.empty() ? "; it printed nothing" : "; its last output:\n" + output;
  }
  return fail(message);
}

}  // namespace kopt::llm
