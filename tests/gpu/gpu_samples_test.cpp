#include "tools/profile/gpu_samples.h"

#include <gtest/gtest.h>

#include "gpu_test_support.h"
#include "util/files.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;
using test::write_json_lines;

constexpr const char* kLongScoreboard = "smsp__pcsamp_warps_issue_stalled_long_scoreboard";
constexpr const char* kLongScoreboardNotIssued =
    "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued";
constexpr const char* kSelected = "smsp__pcsamp_warps_issue_stalled_selected";

Json header() {
  return {{"format", gpu_format::kSamplesFormat},
          {"total_samples", 40},
          {"dropped_samples", 2},
          {"non_user_kernel_samples", 3},
          {"hardware_buffer_full", false},
          {"stall_reasons", {{"7", kLongScoreboard}, {"8", kLongScoreboardNotIssued}}},
          {"warnings", {"one warning"}}};
}

Json pc_line(uint64_t offset, Json stalls) {
  return {{"cubin_crc", "0x00000000000000ab"},
          {"function", "_Z6kernelPf"},
          {"function_index", 4},
          {"pc_offset", offset},
          {"stalls", std::move(stalls)}};
}

class GpuSamplesTest : public ::testing::Test {
 protected:
  TempDir dir_{"gpu-samples-"};
};

TEST_F(GpuSamplesTest, ReadsHeaderRecordsAndCubins) {
  write_json_lines(
      dir_.path() / gpu_format::kSamplesFile,
      {header(), pc_line(0x10, {{kLongScoreboard, 30}, {kLongScoreboardNotIssued, 25}}),
       pc_line(0x20, {{kSelected, 5}})});
  ASSERT_TRUE(write_file(dir_.path() / "cubins" / "0x00000000000000ab.cubin", "elf"));
  auto data = read_pc_sampling(dir_.path());
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_EQ(data->total_samples, 40u);
  EXPECT_EQ(data->dropped_samples, 2u);
  EXPECT_EQ(data->non_user_kernel_samples, 3u);
  EXPECT_EQ(data->stall_reasons.at(7), kLongScoreboard);
  ASSERT_EQ(data->pcs.size(), 2u);
  EXPECT_EQ(data->pcs[0].pc_offset, 0x10u);
  EXPECT_EQ(data->pcs[0].function, "_Z6kernelPf");
  EXPECT_EQ(data->pcs[0].function_index, 4u);
  EXPECT_EQ(data->pcs[0].stalls.at(kLongScoreboardNotIssued), 25u);
  EXPECT_EQ(data->warnings, std::vector<std::string>{"one warning"});
  ASSERT_EQ(data->cubins.count("0x00000000000000ab"), 1u);
}

TEST_F(GpuSamplesTest, AFileOfAnotherFormatIsRefused) {
  Json wrong = header();
  wrong["format"] = "kopt-pcsampling/99";
  write_json_lines(dir_.path() / gpu_format::kSamplesFile, {wrong});
  auto data = read_pc_sampling(dir_.path());
  ASSERT_FALSE(data);
  EXPECT_NE(data.error().message.find("kopt-pcsampling/1"), std::string::npos);
}

TEST_F(GpuSamplesTest, AMalformedLineIsNamed) {
  ASSERT_TRUE(write_file(dir_.path() / gpu_format::kSamplesFile,
                         dump_json(header()) + "\n{\"cubin_crc\": 5}\n"));
  auto data = read_pc_sampling(dir_.path());
  ASSERT_FALSE(data);
  EXPECT_NE(data.error().message.find("line 2"), std::string::npos) << data.error().message;
}

TEST_F(GpuSamplesTest, MissingOutputSaysWhetherTheLibraryWasLoaded) {
  auto none = read_pc_sampling(dir_.path());
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("was not loaded"), std::string::npos);
  ASSERT_TRUE(write_file(dir_.path() / gpu_format::kInjectionFile, "{}\n"));
  auto loaded = read_pc_sampling(dir_.path());
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find("wrote no PC samples"), std::string::npos);
}

TEST_F(GpuSamplesTest, ReadsTheRecordedFailure) {
  EXPECT_FALSE(read_cupti_error(dir_.path()));
  ASSERT_TRUE(write_file(dir_.path() / gpu_format::kErrorFile,
                         R"({"format":"kopt-cupti-error/1","reason":"insufficient-privileges",)"
                         R"("call":"cuptiPCSamplingEnable","code":35,"message":"no rights"})"));
  auto error = read_cupti_error(dir_.path());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->reason, "insufficient-privileges");
  EXPECT_EQ(error->call, "cuptiPCSamplingEnable");
  EXPECT_EQ(error->code, 35);
  EXPECT_EQ(error->message, "no rights");
}

TEST(StallNamesTest, ShortNamesDropTheMetricPrefix) {
  EXPECT_EQ(short_stall_name(kLongScoreboard), "long_scoreboard");
  EXPECT_EQ(short_stall_name("smsp__pcsamp_warp_stall_barrier"), "barrier");
  EXPECT_EQ(short_stall_name(kLongScoreboardNotIssued), "long_scoreboard_not_issued");
  EXPECT_EQ(short_stall_name("index_3"), "index_3");
}

TEST(StallNamesTest, APcCountsEachSampleOnceIgnoringNotIssuedTwins) {
  EXPECT_EQ(sample_count({{kLongScoreboard, 30}, {kLongScoreboardNotIssued, 25}, {kSelected, 5}}),
            35u);
  EXPECT_EQ(sample_count({{kLongScoreboardNotIssued, 4}}), 4u);
  EXPECT_EQ(sample_count({}), 0u);
}

}  // namespace
}  // namespace kopt
