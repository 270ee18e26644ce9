// API keys: read from the environment only, held in memory only, and kept out of every log,
// record, error message and core file of ours.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "agent/llm/environment.h"

namespace kopt::llm {

/// A key from the environment. It has no printing operator; redact() removes it from text that
/// came back from a server (some echo a key they reject). The memory is wiped when it goes away.
class ApiKey {
 public:
  /// Reads `variable`; nullopt when unset. Holding a key first makes this process undumpable.
  static std::optional<ApiKey> from_env(const std::string& variable, const EnvLookup& env);
  ApiKey(std::string variable, std::string value);
  ~ApiKey();
  ApiKey(const ApiKey& other);
  ApiKey& operator=(const ApiKey&) = delete;

  /// The variable the key came from, for messages ("check OPENAI_API_KEY").
  const std::string& variable() const { return variable_; }
  /// The key itself; only for the request header that carries it.
  const std::string& reveal() const { return value_; }
  /// `text` with every occurrence of the key replaced by "[redacted]".
  std::string redact(std::string text) const;

 private:
  std::string variable_;
  std::string value_;
};

/// Makes this process undumpable (prctl PR_SET_DUMPABLE 0): no core file, and other processes
/// of the same user can neither ptrace it nor read its memory. Exec'd children are unaffected.
void protect_process_memory();

/// A header value fit for a log: authorization, keys and tokens become "[redacted]".
std::string redact_header(const std::string& name, const std::string& value);

/// `text` with "Bearer <token>" and "sk-..." style tokens replaced by "[redacted]".
std::string redact_tokens(std::string text);

/// Makes redact_secrets() remove `value` too (every ApiKey read from the environment is).
void register_secret(const std::string& value);

/// `text` without any secret this process knows of: the keys it read, the values of its
/// environment variables whose names say KEY, TOKEN, SECRET or PASSWORD (what an exec: command
/// would use), and Bearer / sk- tokens. The one filter for everything kopt records or prints
/// that came from a model, a command or a server.
std::string redact_secrets(std::string text);

/// `value` with redact_secrets() applied to every string in it (keys of objects included).
nlohmann::json redact_json(const nlohmann::json& value);

}  // namespace kopt::llm
