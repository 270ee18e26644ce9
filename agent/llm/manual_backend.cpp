#include "agent/llm/manual_backend.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <nlohmann/json.hpp>
#include <thread>

#include "agent/llm/chat_json.h"
#include "agent/llm/text_tools.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt::llm {

namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

std::string numbered(const char* prefix, int number, const char* extension) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%04d%s", prefix, number, extension);
  return name;
}

// Size and modification time, to see whether a file is still being written.
std::pair<uintmax_t, fs::file_time_type> stamp(const fs::path& path) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (ec) return {0, {}};
  return {size, fs::last_write_time(path, ec)};
}

}  // namespace

std::string render_prompt(const ChatRequest& request) {
  std::string text;
  if (!request.system.empty()) text += "## System\n\n" + request.system + "\n\n";
  for (size_t i = 0; i < request.messages.size(); ++i) {
    const Message& message = request.messages[i];
    text += "## " + std::to_string(i + 1) + ". " + to_string(message.role) +
            (message.role == Role::tool ? " result of " + message.name : "") + "\n\n" +
            message.content + "\n";
    for (const auto& call : message.tool_calls) text += render_tool_call(call) + "\n";
    text += "\n";
  }
  return text;
}

ManualBackend::ManualBackend(ManualConfig config) : config_(std::move(config)) {
  input_open_ = config_.input_fd >= 0;
}

Status ManualBackend::prepare() {
  std::error_code ec;
  fs::create_directories(config_.dir, ec);
  if (ec) return fail("manual: cannot create " + config_.dir.string() + ": " + ec.message());
  return {};
}

int ManualBackend::next_number() const {
  int highest = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(config_.dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("prompt-", 0) == 0) highest = std::max(highest, std::atoi(name.c_str() + 7));
  }
  return highest + 1;
}

Result<ChatResponse> ManualBackend::chat(const ChatRequest& request, const ChatOptions& options) {
  if (auto status = prepare(); !status) return status.error();
  const int number = next_number();
  const fs::path prompt = config_.dir / numbered("prompt", number, ".md");
  const fs::path answer = config_.dir / numbered("answer", number, ".md");
  const std::string text = render_prompt(request);
  if (auto s = write_file(config_.dir / numbered("request", number, ".json"),
                          dump_json(to_json(request), 2));
      !s)
    return s.error();
  if (auto s = write_file(prompt, text); !s) return s.error();
  std::fprintf(config_.out, "%s\n---\nkopt manual: prompt %d is in %s.\nSave your answer as %s%s\n",
               text.c_str(), number, prompt.c_str(), answer.c_str(),
               input_open_ ? ", or type it here and end with a line holding only '.'" : "");
  std::fflush(config_.out);
  const auto start = Clock::now();
  auto reply = wait_for_answer(answer);
  if (!reply) return reply.error();
  ChatResponse response;
  response.text = std::move(*reply);
  response.model = "manual";
  response.latency_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (options.on_text && !response.text.empty()) options.on_text(response.text);
  return response;
}

Result<std::string> ManualBackend::wait_for_answer(const fs::path& answer_file) {
  const auto start = Clock::now();
  auto last = stamp(answer_file);
  while (true) {
    std::string typed;
    if (read_typed(typed)) return typed;
    auto now = stamp(answer_file);
    if (now.first > 0 && now == last) {
      auto content = read_file(answer_file);
      if (!content) return content.error();
      return *content;
    }
    last = now;
    if (config_.timeout.count() > 0 && Clock::now() - start > config_.timeout)
      return fail("manual: no answer in " + answer_file.string() + " within the time limit");
    if (!input_open_) std::this_thread::sleep_for(config_.poll);
  }
}

// Waits up to one poll interval for typing; true with the answer once it is complete.
bool ManualBackend::read_typed(std::string& answer) {
  if (!input_open_) return false;
  pollfd p{config_.input_fd, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(config_.poll.count())) <= 0) return false;
  char buffer[4096];
  const ssize_t n = ::read(config_.input_fd, buffer, sizeof buffer);
  if (n < 0 && errno == EINTR) return false;
  if (n <= 0) {
    input_open_ = false;
    answer = std::move(typed_);
    typed_.clear();
    return !answer.empty();
  }
  typed_.append(buffer, static_cast<size_t>(n));
  for (size_t at = 0, eol; (eol = typed_.find('\n', at)) != std::string::npos; at = eol + 1) {
    if (typed_.compare(at, eol - at, ".") == 0 || typed_.compare(at, eol - at, ".\r") == 0) {
      answer = typed_.substr(0, at);
      typed_.erase(0, eol + 1);
      return true;
    }
  }
  return false;
}

}  // namespace kopt::llm
