#include "agent/cli/model_text.h"

#include <fmt/format.h>

#include "agent/llm/secrets.h"

namespace kopt::cli {

namespace {

// A streamed answer's tokens are counted only when it ends (its usage); until then about four
// characters of English or code make a token.
constexpr double kCharsPerToken = 4.0;

}  // namespace

ModelTextPrinter::~ModelTextPrinter() {
  finish_answer();
}

void ModelTextPrinter::operator()(const std::string& role, std::string_view delta) {
  if (delta.empty() && role.empty()) return finish_answer();
  if (delta.empty()) {
    finish_answer();
    role_ = role;
    chars_ = 0;
    started_ = std::chrono::steady_clock::now();
    status_.print_above(fmt::format("── {} ──", role));
    return;
  }
  pending_.append(delta);
  chars_ += delta.size();
  print_whole_lines();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const double tokens = static_cast<double>(chars_) / kCharsPerToken;
  status_.detail(fmt::format(
      "{} writing ≈{:.0f} tokens{}", role_, tokens,
      seconds > 0.5 ? fmt::format(", ≈{:.0f} tok/s", tokens / seconds) : std::string()));
}

void ModelTextPrinter::print_whole_lines() {
  size_t start = 0;
  for (size_t end = pending_.find('\n'); end != std::string::npos;
       end = pending_.find('\n', start)) {
    status_.print_above(llm::redact_secrets(pending_.substr(start, end - start)));
    start = end + 1;
  }
  pending_.erase(0, start);
}

void ModelTextPrinter::finish_answer() {
  if (!pending_.empty()) status_.print_above(llm::redact_secrets(pending_));
  pending_.clear();
}

}  // namespace kopt::cli
