// Server-sent events (the streaming format of the OpenAI and Anthropic APIs), parsed from bytes
// that may be split anywhere: inside a line, a "data:" field, a CRLF or a UTF-8 sequence.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::llm {

/// One dispatched event: its type ("message" when not named) and its data lines joined by \n.
struct SseEvent {
  std::string event = "message";
  std::string data;
};

/// The longest line and the largest event data the parser keeps: 16 MiB each.
inline constexpr size_t kMaxSseEventBytes = size_t{16} << 20;

/// Incremental parser; feed it chunks as they arrive.
class SseParser {
 public:
  /// Consumes a chunk and returns the events it completed.
  std::vector<SseEvent> feed(std::string_view chunk);
  /// At the end of the stream: an event whose blank line never came is still dispatched; a
  /// final line without its line break is dropped (it may be cut).
  std::vector<SseEvent> finish();
  /// Why the stream was refused (a line or an event past kMaxSseEventBytes), or "". Once set,
  /// feed and finish return nothing more.
  const std::string& error() const { return error_; }

 private:
  void take_line(std::string_view line, std::vector<SseEvent>& events);

  std::string line_;
  SseEvent pending_;
  bool has_data_ = false;
  bool after_cr_ = false;
  std::string error_;
};

}  // namespace kopt::llm
