// The profile and roofline tools as the loop sees them: schemas, argument checks, and clear
// errors where they cannot run.
#include <gtest/gtest.h>

#include <array>
#include <memory>

#include "tools/profile/profile_tool.h"
#include "tools/registry/registry.h"
#include "tools/roofline/roofline_tool.h"

namespace kopt {
namespace {

std::array<std::unique_ptr<Tool>, 2> both_tools() {
  return {make_profile_tool(), make_roofline_tool()};
}

TEST(ProfilingToolsTest, SchemasAcceptTheirDefaultsAndRefuseTheHumanVersion) {
  for (const auto& tool : both_tools()) {
    const Json schema = tool->schema();
    EXPECT_TRUE(validate_arguments(schema, Json::object()).ok()) << tool->name();
    EXPECT_TRUE(validate_arguments(schema, {{"variant", "original"}}).ok()) << tool->name();
    EXPECT_TRUE(validate_arguments(schema, {{"variant", "0003"}}).ok()) << tool->name();
    EXPECT_FALSE(validate_arguments(schema, {{"variant", "human"}}).ok()) << tool->name();
    EXPECT_FALSE(validate_arguments(schema, {{"variant", "0003/../human"}}).ok()) << tool->name();
    EXPECT_FALSE(tool->description().empty());
  }
  EXPECT_TRUE(validate_arguments(make_roofline_tool()->schema(),
                                 {{"method", "static"}, {"hardware", "h100"}})
                  .ok());
  EXPECT_FALSE(validate_arguments(make_roofline_tool()->schema(), {{"method", "llm"}}).ok());
}

TEST(ProfilingToolsTest, NamesAreTheOnesTheLoopCalls) {
  EXPECT_EQ(make_profile_tool()->name(), "profile");
  EXPECT_EQ(make_roofline_tool()->name(), "roofline");
}

TEST(ProfilingToolsTest, WithoutALocalEvaluatorTheyAnswerWithAReason) {
  Benchmark bench;
  bench.name = "fake";
  ToolContext context;
  context.benchmark = &bench;
  context.current_source = "void f() {}";
  for (const auto& tool : both_tools()) {
    ToolResult result = tool->call(Json::object(), context);
    EXPECT_FALSE(result.ok) << tool->name();
    EXPECT_NE(result.text.find("local evaluator"), std::string::npos) << result.text;
  }
}

}  // namespace
}  // namespace kopt
