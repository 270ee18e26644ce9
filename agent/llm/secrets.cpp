#include "agent/llm/secrets.h"
#include "util/strings.h"

#include <sys/prctl.h>

#include <cctype>
#include <cstring>
#include <mutex>

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

}  // namespace

std::optional<ApiKey> ApiKey::from_env(const std::string& variable, const EnvLookup& env) {
  auto value = env(variable);
  if (!value) return std::nullopt;
  protect_process_memory();
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
  if (value_.empty()) return text;
  for (size_t at = text.find(value_); at != std::string::npos; at = text.find(value_, at))
    text.replace(at, value_.size(), kRedacted);
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
