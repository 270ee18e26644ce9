#include "tools/profile/gpu_attribution.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/schemas.h"
#include "gpu_test_support.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLong = "smsp__pcsamp_warps_issue_stalled_long_scoreboard";
constexpr const char* kLongNot = "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued";
constexpr const char* kMath = "smsp__pcsamp_warps_issue_stalled_math_pipe_throttle";
constexpr const char* kSelectedStall = "smsp__pcsamp_warps_issue_stalled_selected";
constexpr const char* kWait = "smsp__pcsamp_warps_issue_stalled_wait";

// Lines by (function, pc); everything else has no line.
class FakeLineMapper : public SassLineMapper {
 public:
  std::string name() const override { return "fake"; }
  Result<SourceLocation> locate(const fs::path&, const std::string& function,
                                uint64_t pc) override {
    auto it = lines.find({function, pc});
    if (it == lines.end()) return fail("no line for " + function);
    const auto file = files.find(function);
    return SourceLocation{file == files.end() ? "kernel.cu" : file->second, "/gone", it->second};
  }
  std::map<std::pair<std::string, uint64_t>, uint32_t> lines;
  std::map<std::string, std::string> files;  ///< Functions not in kernel.cu.
};

PcSample pc(const std::string& function, uint64_t offset, std::map<std::string, uint64_t> stalls,
            const std::string& crc = "0x1") {
  return {crc, function, 0, offset, std::move(stalls)};
}

class AttributionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    mapper_.lines = {{{"_Z4gemmPf", 0x10}, 3},
                     {{"_Z4gemmPf", 0x20}, 3},
                     {{"_Z4gemmPf", 0x30}, 5},
                     {{"_Z4copyPf", 0x10}, 9}};
    data_.cubins["0x1"] = "/nowhere/0x1.cubin";
    data_.total_samples = 1000;
    data_.pcs = {pc("_Z4gemmPf", 0x10, {{kLong, 300}, {kLongNot, 280}, {kSelectedStall, 20}}),
                 pc("_Z4gemmPf", 0x20, {{kLong, 100}, {kWait, 80}}),
                 pc("_Z4gemmPf", 0x30, {{kMath, 200}, {kSelectedStall, 51}}),
                 pc("_Z4copyPf", 0x10, {{kWait, 40}}), pc("_Z4copyPf", 0x99, {{kWait, 10}})};
    sources_.by_name["kernel.cu"] =
        "line1\nline2\n  acc += a[k] * b[k];  \nline4\n  c[i] = acc;\n6\n7\n8\n  out[i] = in[i];\n";
  }

  FakeLineMapper mapper_;
  PcSamplingData data_;
  SourceFiles sources_;
};

TEST_F(AttributionTest, LinesAreRankedBySamplesWithTheirShareAndCode) {
  GpuAttribution profile = attribute(data_, mapper_, sources_);
  EXPECT_EQ(profile.line_mapper, "fake");
  EXPECT_EQ(profile.samples, 801u);
  EXPECT_EQ(profile.unattributed, 10u);
  ASSERT_EQ(profile.lines.size(), 3u);
  EXPECT_EQ(profile.lines[0].line, 3u);
  EXPECT_EQ(profile.lines[0].samples, 500u);
  EXPECT_DOUBLE_EQ(profile.lines[0].share, 500.0 / 801.0);
  EXPECT_EQ(profile.lines[0].code, "acc += a[k] * b[k];");
  EXPECT_EQ(profile.lines[1].line, 5u);
  EXPECT_EQ(profile.lines[2].line, 9u);
  EXPECT_EQ(profile.lines[2].functions, std::vector<std::string>{"copy(float*)"});
}

TEST_F(AttributionTest, StallReasonsUseShortNamesAndSkipNotIssuedTwins) {
  GpuAttribution profile = attribute(data_, mapper_, sources_);
  const GpuLine& top = profile.lines[0];
  EXPECT_EQ(top.stalls.at("long_scoreboard"), 400u);
  EXPECT_EQ(top.stalls.at("wait"), 80u);
  EXPECT_EQ(top.stalls.at("selected"), 20u);
  EXPECT_EQ(top.stalls.count("long_scoreboard_not_issued"), 0u);
  EXPECT_EQ(profile.stalls.at("wait"), 120u);
}

TEST_F(AttributionTest, KernelsAreDemangledAndRanked) {
  GpuAttribution profile = attribute(data_, mapper_, sources_);
  ASSERT_EQ(profile.functions.size(), 2u);
  EXPECT_EQ(profile.functions[0].demangled, "gemm(float*)");
  EXPECT_EQ(profile.functions[0].samples, 751u);
  EXPECT_EQ(profile.functions[1].name, "_Z4copyPf");
}

TEST_F(AttributionTest, AMissingCubinLeavesSamplesUnattributedWithAWarning) {
  data_.pcs.push_back(pc("_Z4gemmPf", 0x10, {{kLong, 7}}, "0x2"));
  GpuAttribution profile = attribute(data_, mapper_, sources_);
  EXPECT_EQ(profile.unattributed, 17u);
  bool warned = false;
  for (const auto& w : profile.warnings) warned |= w.find("0x2") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST_F(AttributionTest, LostAndDoubleCountedSamplesAreWarnedAbout) {
  data_.dropped_samples = 12;
  data_.hardware_buffer_full = true;
  data_.total_samples = 100;
  GpuAttribution profile = attribute(data_, mapper_, sources_);
  std::string all;
  for (const auto& w : profile.warnings) all += w + "\n";
  EXPECT_NE(all.find("12 samples were dropped"), std::string::npos) << all;
  EXPECT_NE(all.find("hardware buffer"), std::string::npos) << all;
  EXPECT_NE(all.find("counted twice"), std::string::npos) << all;
}

TEST_F(AttributionTest, SummaryShowsTopLinesWithCodeShareAndTopThreeStalls) {
  const std::string text = summarize(attribute(data_, mapper_, sources_), 2);
  EXPECT_NE(text.find("801 samples in 2 kernels"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel.cu:3  62.4%  acc += a[k] * b[k];  | long_scoreboard 80%, wait 16%, "
                      "selected 4%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kernel.cu:5  31.3%  c[i] = acc;  | math_pipe_throttle 80%, selected 20%"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("kernel.cu:9"), std::string::npos) << "only the top 2 lines";
  EXPECT_NE(text.find("not attributed to a line: 1.2%"), std::string::npos) << text;
  EXPECT_NE(text.find("gemm(float*) 93.8%"), std::string::npos) << text;
}

TEST_F(AttributionTest, TheHarnesssOwnKernelsAndLinesAreLeftOutOfTheSummary) {
  const std::string poison = "_ZN10kopt_bench4cuda6detail11fill_kernelIjEEvPT_mS3_";
  mapper_.lines[{poison, 0x10}] = 133;
  mapper_.files[poison] = "cuda_harness.cuh";
  data_.pcs.push_back(pc(poison, 0x10, {{kWait, 600}}));
  const std::string text = summarize(attribute(data_, mapper_, sources_), 2);
  EXPECT_NE(text.find("samples in 2 kernels"), std::string::npos) << text;
  EXPECT_EQ(text.find("kopt_bench"), std::string::npos) << text;
  EXPECT_EQ(text.find("cuda_harness.cuh"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel.cu:3"), std::string::npos) << text;
}

TEST_F(AttributionTest, NoSamplesSaysSo) {
  data_.pcs.clear();
  EXPECT_NE(summarize(attribute(data_, mapper_, sources_)).find("no samples"), std::string::npos);
}

TEST_F(AttributionTest, JsonHoldsEveryLine) {
  Json json = to_json(attribute(data_, mapper_, sources_));
  EXPECT_EQ(json["format"], "kopt-gpu-profile/1");
  EXPECT_EQ(json["samples"], 801);
  EXPECT_EQ(json["unattributed"], 10);
  ASSERT_EQ(json["lines"].size(), 3u);
  EXPECT_EQ(json["lines"][0]["stalls"]["long_scoreboard"], 400);
  EXPECT_EQ(json["functions"][0]["demangled"], "gemm(float*)");
  EXPECT_TRUE(test::meets_its_schema(dump_json(json)));
}

TEST(SourceFilesTest, GivenTextWinsOverTheDisk) {
  TempDir dir("gpu-sources-");
  ASSERT_TRUE(write_file(dir.path() / "kernel.cu", "disk one\ndisk two\n"));
  ASSERT_TRUE(write_file(dir.path() / "other.cuh", "a\n  b  \n"));
  SourceFiles sources;
  sources.by_name["kernel.cu"] = "given one\ngiven two\n";
  EXPECT_EQ(sources.line_text({"kernel.cu", dir.path().string(), 2}), "given two");
  EXPECT_EQ(sources.line_text({"other.cuh", dir.path().string(), 2}), "b");
  EXPECT_EQ(sources.line_text({"other.cuh", dir.path().string(), 9}), "");
  EXPECT_EQ(sources.line_text({"missing.cu", dir.path().string(), 1}), "");
}

}  // namespace
}  // namespace kopt
