#include "agent/record/events.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "tools/eval/evaluation.h"
#include "util/files.h"

namespace kopt {

namespace fs = std::filesystem;

EventLog::~EventLog() {
  if (fd_ >= 0) ::close(fd_);
}

EventLog::EventLog(EventLog&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

EventLog& EventLog::operator=(EventLog&& other) noexcept {
  std::swap(fd_, other.fd_);
  std::swap(path_, other.path_);
  return *this;
}

Result<EventLog> EventLog::create(const fs::path& path) {
  EventLog log;
  log.path_ = path;
  log.fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (log.fd_ < 0) return fail("cannot create " + path.string() + ": " + std::strerror(errno));
  if (auto st = log.append({{"type", "header"}, {"format", kEventsFormat}}); !st) return st.error();
  return log;
}

Result<EventLog> EventLog::open_for_append(const fs::path& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  const size_t keep = text->rfind('\n') == std::string::npos ? 0 : text->rfind('\n') + 1;
  // A last line without its newline is torn only when it does not parse (read_events' rule): a
  // whole event that lost just its newline is one read_events returned, and is kept.
  const bool whole =
      keep < text->size() && !parse_json_or_discarded(text->substr(keep)).is_discarded();
  std::error_code ec;
  if (keep < text->size() && !whole) fs::resize_file(path, keep, ec);
  if (ec) return fail("cannot cut the torn last line of " + path.string());
  EventLog log;
  log.path_ = path;
  log.fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (log.fd_ < 0) return fail("cannot open " + path.string() + ": " + std::strerror(errno));
  if (whole && ::write(log.fd_, "\n", 1) != 1)
    return fail("cannot end the last line of " + path.string() + ": " + std::strerror(errno));
  return log;
}

Status EventLog::append(const Json& event) {
  const std::string line = dump_json(event) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("cannot write to " + path_.string() + ": " + std::strerror(errno));
    done += static_cast<size_t>(n);
  }
  if (::fdatasync(fd_) != 0)
    return fail("cannot flush " + path_.string() + ": " + std::strerror(errno));
  return {};
}

Result<std::vector<Json>> read_events(const fs::path& path, bool* torn) {
  auto text = read_file(path);
  if (!text) return text.error();
  if (torn) *torn = false;
  std::vector<Json> events;
  std::istringstream lines(*text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const bool last = lines.peek() == EOF;
    auto event = parse_json(line, path.filename().string() + " line " + std::to_string(number));
    if (!event) {
      if (last && text->back() != '\n') {
        if (torn) *torn = true;
        break;
      }
      return event.error();
    }
    if (!event->is_object())
      return fail(path.string() + " line " + std::to_string(number) + ": not a JSON object");
    if (number == 1) {
      if (json_member(*event, "format") != Json(kEventsFormat))
        return fail(path.string() + " is not a kopt event log (" + kEventsFormat + ")");
      continue;
    }
    events.push_back(std::move(*event));
  }
  if (number == 0) return fail(path.string() + " is empty");
  return events;
}

std::string json_error_text(const std::string& what) {
  const size_t bracket = what.rfind("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

std::vector<Json> without_retried_calls(const std::vector<Json>& events) {
  std::vector<Json> kept;
  for (const auto& event : events) {
    if (event.value("type", "") != "resumed") {
      kept.push_back(event);
    } else if (!kept.empty() && kept.back().value("type", "") == "model_error") {
      kept.pop_back();
    }
  }
  return kept;
}

Result<std::vector<Json>> resume_point(EventLog& log, const std::vector<Json>& recorded) {
  std::vector<Json> events = recorded;
  if (!recorded.empty() && recorded.back().value("type", "") == "model_error") {
    Json resumed = {
        {"type", "resumed"}, {"retries", recorded.back().value("seq", 0)}, {"time", now_iso8601()}};
    if (auto st = log.append(resumed); !st) return st.error();
    events.push_back(std::move(resumed));  // So that the failed call is made again.
  }
  return without_retried_calls(events);
}

namespace {

void strip_volatile(Json& value) {
  if (value.is_object()) {
    for (const char* key : {"time", "latency_s", "seconds", "started"}) value.erase(key);
    for (auto& [key, child] : value.items()) strip_volatile(child);
  } else if (value.is_array()) {
    for (auto& child : value) strip_volatile(child);
  }
}

std::string describe_difference(const Json& a, const Json& b, const std::string& where) {
  if (a.is_number() && b.is_number())  // Parsed 4 is unsigned, computed 4 is signed: same number.
    return a == b ? std::string()
                  : where + ": recorded " + dump_json(a) + " vs now " + dump_json(b);
  if (a.type() != b.type()) return where + " changed type";
  if (a.is_object()) {
    for (const auto& [key, value] : a.items()) {
      if (!b.contains(key)) return where + "." + key + " is missing now";
      std::string d = describe_difference(value, b[key], where.empty() ? key : where + "." + key);
      if (!d.empty()) return d;
    }
    for (const auto& [key, value] : b.items())
      if (!a.contains(key)) return (where.empty() ? key : where + "." + key) + " is new";
    return {};
  }
  if (a.is_array()) {
    if (a.size() != b.size())
      return where + " has " + std::to_string(b.size()) + " items, recorded " +
             std::to_string(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      std::string d = describe_difference(a[i], b[i], where + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return {};
  }
  if (a == b) return {};
  if (a.is_string()) {
    const std::string &x = a.get_ref<const std::string&>(), &y = b.get_ref<const std::string&>();
    size_t i = 0;
    while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
    return where + " differs at character " + std::to_string(i) + ": recorded '" + x.substr(i, 40) +
           "' vs now '" + y.substr(i, 40) + "'";
  }
  return where + ": recorded " + dump_json(a) + " vs now " + dump_json(b);
}

}  // namespace

Json stable_view(const Json& event) {
  Json copy = event;
  strip_volatile(copy);
  return copy;
}

std::string first_difference(const Json& recorded, const Json& now) {
  return describe_difference(stable_view(recorded), stable_view(now), "");
}

}  // namespace kopt
