// A run's event log: events.jsonl, one JSON object per line, append-only, each event written
// and flushed to disk before the loop moves on, so a run killed at any moment (kill -9) loses
// no completed event. The first line is the header {"type":"header","format":"kopt-events/1"}.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/json.h"
#include "util/result.h"

namespace kopt {

inline constexpr const char* kEventsFormat = "kopt-events/1";

/// Appends events to a file; every append is on disk when it returns.
class EventLog {
 public:
  EventLog() = default;
  ~EventLog();
  EventLog(EventLog&& other) noexcept;
  EventLog& operator=(EventLog&& other) noexcept;
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  /// Creates a new log holding only the header.
  static Result<EventLog> create(const std::filesystem::path& path);
  /// Opens an existing log to append to, after cutting a torn final line.
  static Result<EventLog> open_for_append(const std::filesystem::path& path);
  /// Writes one event as a line and flushes it to disk.
  Status append(const Json& event);

 private:
  int fd_ = -1;
  std::filesystem::path path_;
};

/// The events of a log without its header. A torn final line (a run killed mid-write) is
/// dropped; `torn` tells whether that happened. A malformed line elsewhere is an Error.
Result<std::vector<Json>> read_events(const std::filesystem::path& path, bool* torn = nullptr);

/// The events a resumed or replayed loop is checked against: a `model_error` that a later
/// `kopt resume` made again (marked by the `resumed` event it wrote after it) is left out, and
/// so are the `resumed` events.
std::vector<Json> without_retried_calls(const std::vector<Json>& events);

/// Prepares `log` for a resume: when the record ends in a `model_error` (the model failed and
/// the run was interrupted), appends a `resumed` event so that the call counts as not made and
/// is made again. Returns the events the resumed loop is checked against.
Result<std::vector<Json>> resume_point(EventLog& log, const std::vector<Json>& recorded);

/// A JSON library error's message without its "[json.exception.type_error.302] " prefix: what
/// a record of an unexpected shape tells its reader.
std::string json_error_text(const std::string& what);

/// A copy of an event without what legitimately differs between runs of the same decisions:
/// wall-clock times and latencies.
Json stable_view(const Json& event);

/// Where two events first differ ("response.text at character 120"), or empty when the same
/// apart from times.
std::string first_difference(const Json& recorded, const Json& now);

}  // namespace kopt
