#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/record/events.h"
#include "util/files.h"

namespace kopt {

namespace {

const std::string kHeader = "{\"type\":\"header\",\"format\":\"kopt-events/1\"}\n";

}  // namespace

// A last event whole but for its newline is one read_events returns: a resume once cut it from
// the log (a `stop` lost, the replay then diverged) while going on as if it were recorded.
TEST(EventLogTest, AResumeKeepsAWholeLastEventWithoutItsNewline) {
  TempDir dir("event-log-test-");
  const auto path = dir.path() / "events.jsonl";
  ASSERT_TRUE(write_file(path, kHeader + R"({"type":"iteration","iteration":1})" + "\n" +
                                   R"({"type":"stop","rule":"iterations"})"));
  bool torn = true;
  ASSERT_EQ(read_events(path, &torn).value().size(), 2u);
  EXPECT_FALSE(torn);
  auto log = EventLog::open_for_append(path);
  ASSERT_TRUE(log.ok()) << log.error().message;
  ASSERT_TRUE(log->append({{"type", "resumed"}}));
  const auto events = read_events(path).value();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1]["type"], "stop");
  EXPECT_EQ(events[2]["type"], "resumed");
}

TEST(EventLogTest, AResumeCutsATornLastLine) {
  TempDir dir("event-log-test-");
  const auto path = dir.path() / "events.jsonl";
  ASSERT_TRUE(write_file(
      path, kHeader + R"({"type":"iteration","iteration":1})" + "\n" + R"({"type":"stop","ru)"));
  bool torn = false;
  ASSERT_EQ(read_events(path, &torn).value().size(), 1u);
  EXPECT_TRUE(torn);
  auto log = EventLog::open_for_append(path);
  ASSERT_TRUE(log.ok()) << log.error().message;
  ASSERT_TRUE(log->append({{"type", "resumed"}}));
  const auto events = read_events(path).value();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1]["type"], "resumed");
}

}  // namespace kopt
