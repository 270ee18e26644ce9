#include "agent/llm/backend_factory.h"

#include <cstdlib>

#include "agent/llm/exec_backend.h"
#include "agent/llm/guarded_backend.h"
#include "agent/llm/http_backend.h"
#include "agent/llm/local_backend.h"
#include "agent/llm/replay_backend.h"
#include "agent/llm/text_tools.h"

namespace kopt::llm {

namespace {

constexpr const char* kForms =
    "expected openai:MODEL, anthropic:MODEL, local, replay:RUN_DIR, exec:COMMAND or manual";

std::string without_trailing_slash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

std::chrono::milliseconds seconds_from(const EnvLookup& env, const char* name,
                                       std::chrono::milliseconds fallback) {
  auto text = env(name);
  if (!text) return fallback;
  const double value = std::atof(text->c_str());
  return value > 0 ? std::chrono::milliseconds(static_cast<long>(value * 1000)) : fallback;
}

HttpBackendConfig http_config(const std::string& name, const BackendOptions& options) {
  HttpBackendConfig config;
  config.name = name;
  config.retry = options.retry;
  config.timeouts = options.timeouts;
  config.timeouts.first_byte =
      seconds_from(options.env, "KOPT_LLM_TIMEOUT_S", config.timeouts.first_byte);
  config.timeouts.stall = seconds_from(options.env, "KOPT_LLM_STALL_S", config.timeouts.stall);
  config.retry.deadline = seconds_from(options.env, "KOPT_LLM_DEADLINE_S", config.retry.deadline);
  config.transport = options.transport;
  config.sleeper = options.sleeper;
  return config;
}

// An HTTP API backend: its base URL and key from the environment.
Result<std::unique_ptr<LlmBackend>> make_api_backend(const BackendSpec& spec,
                                                     const BackendOptions& options) {
  const bool openai = spec.kind == "openai";
  const std::string prefix = openai ? "OPENAI" : "ANTHROPIC";
  const auto base = options.env(prefix + "_BASE_URL");
  HttpBackendConfig config = http_config(spec.kind + ":" + spec.argument, options);
  config.key_variable = prefix + "_API_KEY";
  if (auto key = ApiKey::from_env(config.key_variable, options.env))
    config.key = std::make_shared<const ApiKey>(std::move(*key));
  if (!config.key && !base)
    return fail(config.key_variable + " is not set (keys are read from the environment only)");
  const std::string url = without_trailing_slash(
      base.value_or(openai ? "https://api.openai.com/v1" : "https://api.anthropic.com"));
  ApiEndpoint endpoint{url, spec.argument, config.key};
  auto adapter = openai ? make_openai_adapter(endpoint) : make_anthropic_adapter(endpoint);
  return std::unique_ptr<LlmBackend>(std::make_unique<HttpChatBackend>(config, std::move(adapter)));
}

Result<std::unique_ptr<LlmBackend>> make_local_backend(const BackendSpec& spec,
                                                       const BackendOptions& options) {
  auto config =
      LocalModelConfig::load(spec.argument.empty() ? local_model_config_path(options.env)
                                                   : std::filesystem::path(spec.argument));
  if (!config) return config.error();
  const bool tools = config->tool_calling;
  HttpBackendConfig http = http_config("local", options);
  // The server sends an answer only when it is complete, and a small model on two busy cores
  // wrote 2 tokens a second (a 600-token answer: 5 minutes): local answers get 30 minutes
  // unless the environment sets the limits.
  constexpr std::chrono::milliseconds kLocalLimit{30 * 60 * 1000};
  if (!options.env("KOPT_LLM_TIMEOUT_S"))
    http.timeouts.first_byte = std::max(http.timeouts.first_byte, kLocalLimit);
  if (!options.env("KOPT_LLM_DEADLINE_S"))
    http.retry.deadline = std::max(http.retry.deadline, kLocalLimit);
  std::unique_ptr<LlmBackend> local = std::make_unique<LocalBackend>(std::move(*config), http);
  return tools ? std::move(local) : with_text_tools(std::move(local));
}

Result<std::unique_ptr<LlmBackend>> make_kind(const BackendSpec& spec,
                                              const BackendOptions& options) {
  if (spec.kind == "openai" || spec.kind == "anthropic") return make_api_backend(spec, options);
  if (spec.kind == "local") return make_local_backend(spec, options);
  if (spec.kind == "replay")
    return std::unique_ptr<LlmBackend>(std::make_unique<ReplayBackend>(spec.argument));
  if (spec.kind == "exec") {
    ExecConfig config{
        spec.argument,
        seconds_from(options.env, "KOPT_EXEC_TIMEOUT_S", std::chrono::milliseconds(600000)),
        options.runner};
    return std::unique_ptr<LlmBackend>(std::make_unique<ExecBackend>(config));
  }
  ManualConfig manual = options.manual;
  if (!spec.argument.empty())
    manual.dir = spec.argument;
  else if (auto dir = options.env("KOPT_MANUAL_DIR"))
    manual.dir = *dir;
  return with_text_tools(std::make_unique<ManualBackend>(manual));
}

}  // namespace

Result<BackendSpec> parse_backend_spec(const std::string& spec) {
  const size_t colon = spec.find(':');
  BackendSpec parsed{spec.substr(0, colon),
                     colon == std::string::npos ? "" : spec.substr(colon + 1)};
  const std::string& kind = parsed.kind;
  const bool needs_argument =
      kind == "openai" || kind == "anthropic" || kind == "replay" || kind == "exec";
  const bool known = needs_argument || kind == "local" || kind == "manual";
  if (!known) return fail("unknown LLM spec '" + spec + "': " + kForms);
  if (needs_argument && parsed.argument.empty())
    return fail("LLM spec '" + spec + "' needs a value after '" + kind + ":' (" + kForms + ")");
  return parsed;
}

Result<std::unique_ptr<LlmBackend>> make_backend(const std::string& spec,
                                                 const BackendOptions& options) {
  auto parsed = parse_backend_spec(spec);
  if (!parsed) return parsed.error();
  auto backend = make_kind(*parsed, options);
  if (!backend) return backend;
  if ((*backend)->native_tools() && options.env("KOPT_LLM_TOOLS") == "text")
    return guarded(with_text_tools(std::move(*backend)));
  return guarded(std::move(*backend));
}

}  // namespace kopt::llm
