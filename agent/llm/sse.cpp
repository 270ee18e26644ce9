#include "agent/llm/sse.h"

namespace kopt::llm {

std::vector<SseEvent> SseParser::feed(std::string_view chunk) {
  std::vector<SseEvent> events;
  for (char c : chunk) {
    if (!error_.empty()) break;
    const bool newline_after_cr = after_cr_ && c == '\n';
    after_cr_ = (c == '\r');
    if (newline_after_cr) continue;
    if (c == '\r' || c == '\n') {
      take_line(line_, events);
      line_.clear();
    } else if (line_.size() < kMaxSseEventBytes) {
      line_ += c;
    } else {
      error_ =
          "the event stream has a line longer than " + std::to_string(kMaxSseEventBytes) + " bytes";
    }
  }
  return events;
}

std::vector<SseEvent> SseParser::finish() {
  std::vector<SseEvent> events;
  line_.clear();
  if (has_data_ && error_.empty()) take_line("", events);
  return events;
}

void SseParser::take_line(std::string_view line, std::vector<SseEvent>& events) {
  if (line.empty()) {
    if (has_data_) events.push_back(std::move(pending_));
    pending_ = SseEvent{};
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // A comment, used as keep-alive.
  const size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (pending_.data.size() + value.size() >= kMaxSseEventBytes) {
      error_ = "the event stream has an event larger than " + std::to_string(kMaxSseEventBytes) +
               " bytes";
      return;
    }
    if (has_data_) pending_.data += '\n';
    pending_.data += value;
    has_data_ = true;
  } else if (field == "event") {
    pending_.event = value;
  }
}

}  // namespace kopt::llm
