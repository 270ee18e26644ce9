// Attribution of perf samples to kernel lines, on a real recording: the licm benchmark's
// original kernel (exp recomputed in the inner loop), sampled with cpu-clock and DWARF call
// chains in kopt's sandbox, with the addr2line answers for its binary.
#include "tools/profile/perf_script.h"

#include <gtest/gtest.h>

#include "util/files.h"

namespace kopt {
namespace {

const std::string kBinary = "/tmp/kopt-work-0/ptest/bench";

std::string profile_fixture(const std::string& name) {
  auto text = read_file(std::string(KOPT_TEST_FIXTURES) + "/profile/" + name);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : "";
}

CpuProfile licm_profile() {
  const auto samples = parse_perf_script(profile_fixture("licm.perf-script.txt"));
  ProfileBuilder builder;
  attribute_samples(samples, parse_addr2line(profile_fixture("licm.addr2line.txt")), kBinary,
                    "kernel.cpp", builder);
  CpuProfile profile;
  builder.finish(profile_fixture("licm-original.cpp"), profile);
  return profile;
}

TEST(PerfScriptTest, ParsesCallChainsWithoutInlineFrames) {
  const auto samples = parse_perf_script(profile_fixture("licm.perf-script.txt"));
  ASSERT_EQ(samples.size(), 136u);
  const StackFrame& leaf = samples.back().frames.front();
  EXPECT_FALSE(leaf.object.empty());
  for (const auto& s : samples)
    for (const auto& f : s.frames) ASSERT_NE(f.object, "inlined");
}

TEST(PerfScriptTest, ParsesFramesWithoutCallChains) {
  const auto samples = parse_perf_script(
      "    7  2eba standardize+0x8a (/w/bench)\n    7  21c0 main+0x0 (/w/bench)\n");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].tid, 7);
  EXPECT_EQ(samples[0].frames[0].address, 0x2ebau);
  EXPECT_EQ(samples[0].frames[0].symbol, "standardize");
  EXPECT_EQ(samples[0].frames[0].object, "/w/bench");
}

TEST(PerfScriptTest, CallersAreLookedUpInsideTheCallInstruction) {
  const auto samples =
      parse_perf_script("    1 \n\t  10 exp+0x1 (/lib/libm.so.6)\n\t  2ebb f+0x8b (/w/bench)\n");
  EXPECT_EQ(lookup_addresses(samples, "/w/bench"), std::vector<uint64_t>{0x2eba});
}

TEST(PerfScriptTest, ReadsInlineChainsAndDiscriminators) {
  const LineTable table = parse_addr2line(
      "0x00000000000031a1\ninner()\n/b/harness.h:79\nouter()\n/b/kernel.cpp:12 (discriminator "
      "3)\n");
  ASSERT_EQ(table.at(0x31a1).size(), 2u);
  EXPECT_EQ(table.at(0x31a1)[0].file, "/b/harness.h");
  EXPECT_EQ(table.at(0x31a1)[1].line, 12);
  EXPECT_EQ(table.at(0x31a1)[1].function, "outer()");
}

TEST(PerfScriptTest, ExpInTheInnerLoopIsTheHottestLine) {
  const CpuProfile profile = licm_profile();
  EXPECT_EQ(profile.total, 136u);
  ASSERT_FALSE(profile.lines.empty());
  const LineCount& top = profile.lines.front();
  EXPECT_EQ(top.line, 9);
  EXPECT_NE(top.code.find("std::exp"), std::string::npos);
  EXPECT_GT(top.callees, 0u);
  EXPECT_TRUE(top.callee_names.count("__ieee754_exp_fma (libm.so.6)"));
}

TEST(PerfScriptTest, EverySampleHasOnePlace) {
  const CpuProfile profile = licm_profile();
  uint64_t sum = 0, lines = 0;
  for (const auto& [place, count] : profile.by_place) sum += count;
  for (const auto& line : profile.lines) lines += line.total();
  EXPECT_EQ(sum, profile.total);
  EXPECT_GT(profile.by_place.at(where::kLibm), 40u);  // exp, called from line 9
  EXPECT_LE(lines, profile.total);
  EXPECT_GE(lines + profile.by_place.at(where::kHarness), profile.total - 3);
}

}  // namespace
}  // namespace kopt
