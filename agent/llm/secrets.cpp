#include "agent/llm/secrets.h"

#include <nlohmann/json.hpp>
#include "util/strings.h"

#include <sys/prctl.h>

#include <cctype>
#include <cstring>
#include <mutex>
#include <set>

extern char** environ;

namespace kopt::llm {

namespace {

constexpr const char* kRedacted = "[redacted]";

bool token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

// Replaces the token that starts at `at` (up to the first non-token character).
size_t replace_token(std::string& text, size_t at) {
  size_t end = at;
  while (end < text.size() && token_char(text[end])) ++end;
  while (end > at && text[end - 1] == '.') --end;  // A full stop ends the sentence, not the token.
  text.replace(at, end - at, kRedacted);
  return at + std::strlen(kRedacted);
}

// Values shorter than this are not treated as secrets (they would redact ordinary words).
constexpr size_t kMinSecret = 8;

struct SecretSet {
  std::mutex mutex;
  std::set<std::string> values;
};

SecretSet& secrets() {
  static SecretSet set;
  return set;
}

bool secret_name(std::string name) {
  name = to_lower(name);
  for (const char* word : {"key", "token", "secret", "password", "passwd", "credential"})
    if (name.find(word) != std::string::npos) return true;
  return false;
}

// Adds the values of secret-looking environment variables (read at every use: cheap, and a
// variable set later is covered too).
void scan_environment(SecretSet& set) {
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string pair = *entry;
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || !secret_name(pair.substr(0, eq))) continue;
    if (pair.size() - eq - 1 >= kMinSecret) set.values.insert(pair.substr(eq + 1));
  }
}

void replace_all(std::string& text, const std::string& value) {
  for (size_t at = text.find(value); at != std::string::npos; at = text.find(value, at))
    text.replace(at, value.size(), kRedacted);
}

}  // namespace

void register_secret(const std::string& value) {
  if (value.size() < kMinSecret) return;
  std::lock_guard<std::mutex> lock(secrets().mutex);
  secrets().values.insert(value);
}

std::string redact_secrets(std::string text) {
  {
    SecretSet& set = secrets();
    std::lock_guard<std::mutex> lock(set.mutex);
    scan_environment(set);
    for (const auto& value : set.values) replace_all(text, value);
  }
  return redact_tokens(std::move(text));
}

nlohmann::json redact_json(const nlohmann::json& value) {
  if (value.is_string()) return redact_secrets(value.get<std::string>());
  if (value.is_array()) {
    nlohmann::json copy = nlohmann::json::array();
    for (const auto& item : value) copy.push_back(redact_json(item));
    return copy;
  }
  if (!value.is_object()) return value;
  nlohmann::json copy = nlohmann::json::object();
  for (const auto& [key, item] : value.items()) copy[redact_secrets(key)] = redact_json(item);
  return copy;
}

std::optional<ApiKey> ApiKey::from_env(const std::string& variable, const EnvLookup& env) {
  auto value = env(variable);
  if (!value) return std::nullopt;
  protect_process_memory();
  register_secret(*value);
  return ApiKey(variable, std::move(*value));
}

ApiKey::ApiKey(std::string variable, std::string value)
    : variable_(std::move(variable)), value_(std::move(value)) {}

ApiKey::ApiKey(const ApiKey& other) : variable_(other.variable_), value_(other.value_) {}

ApiKey::~ApiKey() {
  volatile char* bytes = value_.data();
  for (size_t i = 0; i < value_.size(); ++i) bytes[i] = 0;
}

std::string ApiKey::redact(std::string text) const {
  if (!value_.empty()) replace_all(text, value_);
  return text;
}

void protect_process_memory() {
  static std::once_flag once;
  std::call_once(once, [] { prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); });
}

std::string redact_header(const std::string& name, const std::string& value) {
  const std::string key = to_lower(name);
  for (const char* secret : {"authorization", "key", "token", "secret", "cookie"})
    if (key.find(secret) != std::string::npos) return kRedacted;
  return redact_tokens(value);
}

std::string redact_tokens(std::string text) {
  for (size_t at = 0; at < text.size();) {
    if (text.compare(at, 7, "Bearer ") == 0) {
      at = replace_token(text, at + 7);
    } else if (text.compare(at, 3, "sk-") == 0 && (at == 0 || !token_char(text[at - 1]))) {
      at = replace_token(text, at);
    } else {
      ++at;
    }
  }
  return text;
}

}  // namespace kopt::llm
