// Every parser of untrusted input has a stated bound on size and nesting and says so past it,
// instead of running out of stack or memory; files are read only when they are regular files.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/llm/sse.h"
#include "tools/benchmark/benchmark.h"
#include "tools/benchmark/expression.h"
#include "tools/roofline/scev.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::string nested(const std::string& open, const std::string& inner, const std::string& close,
                   int depth) {
  std::string text;
  for (int i = 0; i < depth; ++i) text += open;
  text += inner;
  for (int i = 0; i < depth; ++i) text += close;
  return text;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(InputLimitsTest, WorkExpressionNestingIsBoundedNotByTheStack) {
  const int depth = kMaxExpressionDepth;
  EXPECT_DOUBLE_EQ(*evaluate_expression(nested("(", "n", ")", depth / 2), 3), 3);
  auto deep = evaluate_expression(nested("(", "n", ")", 50000), 3);
  ASSERT_FALSE(deep.ok());
  EXPECT_TRUE(has(deep.error().message, "longer than")) << deep.error().message;
  auto just_too_deep = evaluate_expression(nested("(", "n", ")", depth + 1), 3);
  ASSERT_FALSE(just_too_deep.ok());
  EXPECT_TRUE(has(just_too_deep.error().message, "nested deeper than 200 levels"))
      << just_too_deep.error().message;
  EXPECT_FALSE(evaluate_expression(std::string(3000, '-') + "n", 1).ok());
  std::string powers = "2";
  for (int i = 0; i < 300; ++i) powers += "^2";
  auto tower = evaluate_expression(powers, 1);
  ASSERT_FALSE(tower.ok());
  EXPECT_TRUE(has(tower.error().message, "nested deeper than")) << tower.error().message;
}

TEST(InputLimitsTest, AManifestWithADeepExpressionIsOneLineOfError) {
  TempDir dir("limits-test-");
  const fs::path bench = dir.path() / "licm";
  auto manifest =
      read_json_file(fs::path(KOPT_TEST_FIXTURES) / "../../benchmarks/cpu/licm/benchmark.json");
  ASSERT_TRUE(manifest.ok());
  (*manifest)["work"]["flops"] = nested("(", "n", ")", 50000);
  ASSERT_TRUE(write_json_file(bench / "benchmark.json", *manifest).ok());
  auto loaded = load_benchmark(bench);
  ASSERT_FALSE(loaded.ok());
  EXPECT_TRUE(has(loaded.error().message, "longer than 4096 characters"))
      << loaded.error().message.substr(0, 300);
  EXPECT_FALSE(has(loaded.error().message, "\n"));
  EXPECT_LT(loaded.error().message.size(), 400u);
}

TEST(InputLimitsTest, JsonNestingIsBounded) {
  EXPECT_TRUE(parse_json(nested("[", "1", "]", kMaxJsonDepth), "x").ok());
  auto deep = parse_json(nested("[", "1", "]", 100000), "deep.json");
  ASSERT_FALSE(deep.ok());
  EXPECT_TRUE(has(deep.error().message, "deep.json nests arrays or objects deeper than 128"))
      << deep.error().message;
  EXPECT_TRUE(parse_json_or_discarded(nested("{\"a\":", "1", "}", 100000)).is_discarded());
  // Brackets inside strings are text, not nesting.
  EXPECT_TRUE(parse_json("\"" + std::string(1000, '[') + "\"", "x").ok());
}

TEST(InputLimitsTest, ScevNestingIsBounded) {
  EXPECT_TRUE(parse_scev(nested("(1 + ", "%n", ")", 20)).has_value());
  EXPECT_FALSE(parse_scev(nested("(1 + ", "%n", ")", kMaxScevDepth + 1)).has_value());
  EXPECT_FALSE(parse_scev(nested("{", "0", ",+,1}<%l>", 20000)).has_value());
}

TEST(InputLimitsTest, AnEventStreamLineIsBounded) {
  llm::SseParser parser;
  const std::string chunk(1 << 20, 'x');
  EXPECT_TRUE(parser.feed("data: ").empty());
  for (size_t sent = 0; sent <= llm::kMaxSseEventBytes; sent += chunk.size()) parser.feed(chunk);
  EXPECT_TRUE(has(parser.error(), "longer than 16777216 bytes")) << parser.error();
  EXPECT_TRUE(parser.feed("\n\n").empty());
  EXPECT_TRUE(parser.finish().empty());

  llm::SseParser events;
  const std::string line = "data: " + std::string(1 << 20, 'y') + "\n";
  for (int i = 0; i < 17; ++i) events.feed(line);
  EXPECT_TRUE(has(events.error(), "an event larger than")) << events.error();
}

TEST(InputLimitsTest, OnlyRegularFilesAreReadAndOnlyUpToTheLimit) {
  TempDir dir("limits-test-");
  const fs::path fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto from_fifo = read_file(fifo);  // Must not wait for a writer.
  ASSERT_FALSE(from_fifo.ok());
  EXPECT_TRUE(has(from_fifo.error().message, "is not a regular file"));
  EXPECT_FALSE(read_file("/dev/zero").ok());
  EXPECT_FALSE(read_file(dir.path()).ok());
  EXPECT_FALSE(read_json_file(fifo).ok());
  const fs::path big = dir.path() / "big";
  ASSERT_TRUE(write_file(big, std::string(1000, 'x')).ok());
  EXPECT_EQ(read_file(big, 1000).value().size(), 1000u);
  auto too_big = read_file(big, 999);
  ASSERT_FALSE(too_big.ok());
  EXPECT_TRUE(has(too_big.error().message, "larger than the limit of 999 bytes"));
}

}  // namespace kopt
