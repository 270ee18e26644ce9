#include "agent/loop/event_stream.h"

#include "agent/llm/secrets.h"
#include "tools/eval/evaluation.h"

namespace kopt {

EventStream::EventStream(StreamMode mode, EventLog* log, std::vector<Json> recorded)
    : mode_(mode), log_(log), recorded_(std::move(recorded)) {}

Status EventStream::emit(Json event) {
  event = llm::redact_json(event);
  event["time"] = now_iso8601();
  const size_t index = emitted_++;
  if (mode_ != StreamMode::record && index < recorded_.size()) {
    const std::string difference = first_difference(recorded_[index], event);
    if (!difference.empty())
      return fail("diverged from the record at event " + std::to_string(index + 1) + " (" +
                  recorded_[index].value("type", "?") + "): " + difference);
    return {};
  }
  if (mode_ == StreamMode::replay)
    return fail("the replay goes on past the end of the record at event " +
                std::to_string(index + 1) + " (" + event.value("type", "?") + ")");
  return log_->append(event);
}

}  // namespace kopt
