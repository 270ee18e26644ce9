// The llm method's prompt and answer parser, and the hardware table.
#include <gtest/gtest.h>

#include "tools/machine/hardware.h"
#include "tools/roofline/llm_prompt.h"

namespace kopt {
namespace {

TEST(RooflineLlmTest, ParsesTheFinalAnswerLine) {
  EXPECT_EQ(*parse_roofline_answer("It streams... compute-bound? No.\nAnswer: bandwidth-bound"),
            BoundClass::bandwidth);
  EXPECT_EQ(*parse_roofline_answer("**Answer:** Compute-bound"), BoundClass::compute);
  EXPECT_EQ(*parse_roofline_answer("Answer: memory-bound."), BoundClass::bandwidth);
}

TEST(RooflineLlmTest, FallsBackToTheLastClassNamed) {
  EXPECT_EQ(*parse_roofline_answer("not bandwidth-bound but compute-bound"), BoundClass::compute);
  EXPECT_FALSE(parse_roofline_answer("I cannot tell.").ok());
}

TEST(RooflineLlmTest, FillsEveryPlaceholder) {
  EXPECT_EQ(*fill_template("{{a}} and {{a}}, {{b}}", {{"a", "x"}, {"b", "{{y}}"}}),
            "x and x, {{y}}");
  EXPECT_FALSE(fill_template("{{a}} {{missing}}", {{"a", "x"}}).ok());
}

TEST(RooflineLlmTest, EveryHardwareFigureHasASource) {
  auto table = load_hardware_table(default_hardware_table());
  ASSERT_TRUE(table.ok()) << table.error().message;
  ASSERT_GE(table->size(), 4u);
  for (const auto& spec : *table) {
    EXPECT_EQ(spec.sources.size(), 7u) << spec.name;
    EXPECT_GT(spec.peaks.fp32, spec.peaks.fp64) << spec.name;
    EXPECT_GT(spec.sm_count, 0) << spec.name;
  }
  for (const char* name : {"rtx3080", "a100", "h100", "h200", "H100-SXM5"})
    EXPECT_TRUE(find_hardware(name).ok()) << name;
  EXPECT_FALSE(find_hardware("voodoo2").ok());
}

}  // namespace
}  // namespace kopt
