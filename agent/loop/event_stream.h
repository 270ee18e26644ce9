// Where the loop's events go. Recording appends them to the log. Replay compares each with the
// recorded event at the same position and stops at the first divergence. Resume does the same
// for the events already recorded, then appends the rest.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agent/record/events.h"

namespace kopt {

enum class StreamMode { record, replay, resume };

class EventStream {
 public:
  /// `log` may be null in replay mode (nothing is written).
  EventStream(StreamMode mode, EventLog* log, std::vector<Json> recorded = {});

  /// Emits one event, without secrets (llm::redact_secrets) and with a "time" field; an Error
  /// on a divergence or a failed write.
  Status emit(Json event);
  /// How many events were emitted so far.
  size_t count() const { return emitted_; }
  /// True once every recorded event has been matched (replay: the whole run reproduced).
  bool recording_exhausted() const { return emitted_ >= recorded_.size(); }
  StreamMode mode() const { return mode_; }

 private:
  StreamMode mode_;
  EventLog* log_;
  std::vector<Json> recorded_;
  size_t emitted_ = 0;
};

}  // namespace kopt
