// Server-sent events (the streaming format of the OpenAI and Anthropic APIs), parsed from bytes
// that may be split anywhere: inside a line, a "data:" field, a CRLF or a UTF-8 sequence.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kopt::llm {

/// One dispatched event: its type ("message" when not named) and its data lines joined by \n.
struct SseEvent {
  std::string event = "message";
  std::string data;
};

/// Incremental parser; feed it chunks as they arrive.
class SseParser {
 public:
  /// Consumes a chunk and returns the events it completed.
  std::vector<SseEvent> feed(std::string_view chunk);
  /// At the end of the stream: an event whose blank line never came is still dispatched; a
  /// final line without its line break is dropped (it may be cut).
  std::vector<SseEvent> finish();

 private:
  void take_line(std::string_view line, std::vector<SseEvent>& events);

  std::string line_;
  SseEvent pending_;
  bool has_data_ = false;
  bool after_cr_ = false;
};

}  // namespace kopt::llm
