#include "agent/llm/sse.h"

#include <gtest/gtest.h>

#include "tests/llm/wire_formats.h"

namespace kopt::llm::testing {
namespace {

std::vector<SseEvent> parse_in_pieces(const std::string& text, size_t piece) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (size_t at = 0; at < text.size(); at += piece)
    for (auto& event : parser.feed(std::string_view(text).substr(at, piece)))
      events.push_back(event);
  for (auto& event : parser.finish()) events.push_back(event);
  return events;
}

TEST(SseParserTest, ReadsEventsAndDataLines) {
  auto events = parse_in_pieces("event: ping\ndata: {}\n\ndata: a\ndata: b\n\n", 1000);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event, "ping");
  EXPECT_EQ(events[0].data, "{}");
  EXPECT_EQ(events[1].event, "message");
  EXPECT_EQ(events[1].data, "a\nb");
}

TEST(SseParserTest, AnySplitGivesTheSameEvents) {
  const std::string stream = openai_sse(
      {"h\xC3\xA9llo \xE2\x9C\x93 w\xC3\xB6rld", {{"f", R"({"x": "\u00e9"})"}}, "", 1, 2, "m"});
  const auto whole = parse_in_pieces(stream, stream.size());
  ASSERT_GT(whole.size(), 5u);
  for (size_t piece = 1; piece <= 13; ++piece) {
    const auto split = parse_in_pieces(stream, piece);
    ASSERT_EQ(split.size(), whole.size()) << "piece " << piece;
    for (size_t i = 0; i < whole.size(); ++i) EXPECT_EQ(split[i].data, whole[i].data);
  }
}

TEST(SseParserTest, CrLfSplitBetweenChunksIsOneLineBreak) {
  SseParser parser;
  EXPECT_TRUE(parser.feed("data: x\r").empty());
  auto first = parser.feed("\n\r");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].data, "x");
  auto second = parser.feed("\ndata: y\r\r");
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].data, "y");
  EXPECT_TRUE(parser.finish().empty());
}

TEST(SseParserTest, CommentsAndUnknownFieldsAreIgnored) {
  auto events = parse_in_pieces(": keep-alive\nid: 3\nretry: 10\ndata:no-space\n\n", 4);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "no-space");
}

TEST(SseParserTest, AtTheEndACompleteEventIsKeptAndACutLineDropped) {
  SseParser parser;
  EXPECT_TRUE(parser.feed("data: whole\ndata: {\"cut").empty());
  auto events = parser.finish();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "whole");
}

}  // namespace
}  // namespace kopt::llm::testing
