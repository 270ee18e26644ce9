// Attribution of callgrind's instruction counts (a small file in callgrind's own format).
#include "tools/profile/callgrind.h"

#include <gtest/gtest.h>

#include "util/files.h"

namespace kopt {
namespace {

CpuProfile small_profile() {
  static const std::filesystem::path kFile =
      std::filesystem::path(KOPT_TEST_FIXTURES) / "profile" / "small.callgrind.out";
  auto text = read_file(kFile);
  EXPECT_TRUE(text.ok());
  ProfileBuilder builder;
  attribute_callgrind(text.ok() ? *text : "", "/w/bench", "kernel.cpp", builder);
  CpuProfile profile;
  std::string source;
  for (int i = 1; i <= 10; ++i) source.append("line ").append(std::to_string(i)).append("\n");
  builder.finish(source, profile);
  return profile;
}

const LineCount* find_line(const CpuProfile& p, int line) {
  for (const auto& l : p.lines)
    if (l.line == line) return &l;
  return nullptr;
}

TEST(CallgrindTest, SelfCostsCountOncePerPlace) {
  const CpuProfile p = small_profile();
  EXPECT_EQ(p.total, 50u + 100 + 40 + 200 + 100 + 300 + 50);
  EXPECT_EQ(p.by_place.at(where::kKernel), 100u + 40 + 200 + 100);  // inlined header code too
  EXPECT_EQ(p.by_place.at(where::kLibm), 300u);
  EXPECT_EQ(p.by_place.at(where::kOpenMp), 50u);
  EXPECT_EQ(p.by_place.at(where::kHarness), 50u);
}

TEST(CallgrindTest, LibraryCallsAddToTheCallingLine) {
  const CpuProfile p = small_profile();
  const LineCount* line = find_line(p, 7);
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->self, 200u);
  EXPECT_EQ(line->callees, 300u);
  EXPECT_EQ(line->callee_names.at("exp (libm.so.6)"), 300u);
  EXPECT_EQ(p.lines.front().line, 7);
  EXPECT_EQ(line->code, "line 7");
}

TEST(CallgrindTest, OpenMpRuntimeCallsAreNotCountedTwice) {
  const CpuProfile p = small_profile();
  EXPECT_EQ(find_line(p, 9), nullptr);
  ASSERT_NE(find_line(p, 10), nullptr);
  EXPECT_EQ(find_line(p, 10)->self, 100u);
}

}  // namespace
}  // namespace kopt
