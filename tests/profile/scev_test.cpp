// Parsing and evaluating LLVM scalar-evolution expressions as opt prints them.
#include "tools/roofline/scev.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

ScevEnvironment env(double n, double radius, double trips) {
  ScevEnvironment e;
  e.value = [=](const std::string& name) -> std::optional<double> {
    if (name == "%n") return n;
    if (name == "%radius") return radius;
    if (name == "%in" || name == "%w" || name == "%a") return 0.0;
    return std::nullopt;
  };
  e.trips = [=](const std::string&) -> std::optional<double> { return trips; };
  return e;
}

double value_of(const std::string& text, const ScevEnvironment& e) {
  auto scev = parse_scev(text);
  EXPECT_TRUE(scev.has_value()) << text;
  if (!scev) return -1;
  return evaluate(**scev, e).value_or(-1);
}

TEST(ScevTest, EvaluatesArithmeticCastsAndMax) {
  const auto e = env(100, 8, 10);
  EXPECT_DOUBLE_EQ(value_of("(-1 + %n)", e), 99);
  EXPECT_DOUBLE_EQ(value_of("(-1 + (zext i32 %radius to i64))<nsw>", e), 7);
  EXPECT_DOUBLE_EQ(value_of("(((-1 * %radius) smax %radius) + %radius)", e), 16);
  EXPECT_DOUBLE_EQ(value_of("((-1 + %n) /u 2)", e), 49);
}

TEST(ScevTest, AddRecurrencesTakeTheirMean) {
  EXPECT_DOUBLE_EQ(value_of("{(-2 + %n),+,-1}<nw><%for.body>", env(100, 0, 99)), 98 - 49);
}

TEST(ScevTest, UnknownNamesAndCouldNotComputeHaveNoValue) {
  const auto e = env(100, 8, 10);
  EXPECT_DOUBLE_EQ(value_of("(-1 + (-1 * %0) + %1)", e), -1);
  auto bad = parse_scev("***COULDNOTCOMPUTE***");
  ASSERT_TRUE(bad.has_value());
  EXPECT_FALSE(evaluate(**bad, e).has_value());
}

TEST(ScevTest, SpanOfANestedAddressSweep) {
  // in[i + k] for i < n, -radius <= k <= radius: the neighbours overlap, about 8 n bytes.
  auto scev = parse_scev(
      "{{((8 * (sext i32 (-1 * %radius) to i64))<nsw> + %in),+,8}<%for.body>,+,8}<%for.body4>");
  ASSERT_TRUE(scev.has_value());
  ScevEnvironment e = env(1000, 8, 0);
  e.trips = [](const std::string& loop) -> std::optional<double> {
    return loop == "%for.body" ? 1000 : 17;
  };
  EXPECT_DOUBLE_EQ(*span(**scev, e), 8 * 999 + 8 * 16);
  EXPECT_EQ(recurrence_loops(**scev), (std::vector<std::string>{"%for.body4", "%for.body"}));
}

TEST(ScevTest, SpanOfAColumnWalk) {
  auto scev = parse_scev("{{%b,+,8}<%for.body8.preheader>,+,(8 * %n)}<nw><%for.body8>");
  ASSERT_TRUE(scev.has_value());
  EXPECT_DOUBLE_EQ(*span(**scev, env(10, 0, 10)), 8 * 9 + 80 * 9);
}

}  // namespace
}  // namespace kopt
