// The injection library's parts that run without a GPU: failure classification, the output
// folder, sample aggregation, and the whole offline chain from CUPTI-shaped records through the
// files kopt reads to ranked source lines on a real cubin. The PC records here are synthetic
// (built in the test); recorded ones live in tests/fixtures/cupti
// (scripts/record-cupti-fixtures.sh).
#include <gtest/gtest.h>

#if KOPT_HAVE_CUPTI_INJECT

#include <dlfcn.h>
#include <stdlib.h>

#include <nlohmann/json.hpp>

#include "gpu_test_support.h"
#include "tools/profile/gpu_attribution.h"
#include "tools/profile/gpu_samples.h"
#include "tools/profile/inject/cupti_errors.h"
#include "tools/profile/inject/output.h"
#include "tools/profile/inject/pc_aggregate.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;
using inject::describe_failure;
using inject::OutputFolder;
using inject::PcAggregate;
using inject::StallReasonNames;

const StallReasonNames kNames = {{3, "smsp__pcsamp_warps_issue_stalled_long_scoreboard"},
                                 {4, "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued"},
                                 {9, "smsp__pcsamp_warps_issue_stalled_selected"}};

// A CUpti_PCSamplingData buffer as CUPTI fills it.
struct Records {
  void add(uint64_t crc, const char* function, uint64_t pc,
           std::vector<CUpti_PCSamplingStallReason> stalls) {
    stalls_.push_back(std::move(stalls));
    CUpti_PCSamplingPCData record = {};
    record.size = sizeof record;
    record.cubinCrc = crc;
    record.pcOffset = pc;
    record.functionName = const_cast<char*>(function);
    records_.push_back(record);
  }
  CUpti_PCSamplingData data(uint64_t total, uint64_t dropped) {
    for (size_t i = 0; i < records_.size(); ++i) {
      records_[i].stallReason = stalls_[i].data();
      records_[i].stallReasonCount = stalls_[i].size();
    }
    CUpti_PCSamplingData d = {};
    d.size = sizeof d;
    d.collectNumPcs = records_.size();
    d.totalNumPcs = records_.size();
    d.totalSamples = total;
    d.droppedSamples = dropped;
    d.pPcData = records_.data();
    return d;
  }
  std::vector<CUpti_PCSamplingPCData> records_;
  std::vector<std::vector<CUpti_PCSamplingStallReason>> stalls_;
};

TEST(CuptiFailureTest, InsufficientPrivilegesSaysWhatToDo) {
  auto failure = describe_failure("cuptiPCSamplingEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  EXPECT_EQ(failure.reason, "insufficient-privileges");
  EXPECT_EQ(failure.code, 35);
  EXPECT_NE(failure.message.find("cuptiPCSamplingEnable failed with"), std::string::npos);
  EXPECT_NE(failure.message.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  EXPECT_EQ(failure.message.find('\n'), std::string::npos) << "one line";
}

TEST(CuptiFailureTest, ResultsFallIntoKoptsCategories) {
  EXPECT_EQ(inject::reason_of(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES),
            "insufficient-privileges");
  EXPECT_EQ(inject::reason_of(CUPTI_ERROR_NOT_INITIALIZED), "no-device");
  EXPECT_EQ(inject::reason_of(CUPTI_ERROR_NOT_SUPPORTED), "not-supported");
  EXPECT_EQ(inject::reason_of(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), "profiler-busy");
  EXPECT_EQ(inject::reason_of(CUPTI_ERROR_UNKNOWN), "cupti-error");
}

TEST(OutputFolderTest, TheFirstFailureIsKeptAndKoptReadsIt) {
  TempDir dir("gpu-out-");
  OutputFolder out(dir.path() / "out");
  EXPECT_TRUE(out.write_failure(
      describe_failure("cuptiPCSamplingEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)));
  EXPECT_FALSE(out.write_failure(describe_failure("cuptiSubscribe", CUPTI_ERROR_UNKNOWN)));
  EXPECT_TRUE(out.failed());
  auto error = read_cupti_error(dir.path() / "out");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->reason, "insufficient-privileges");
  EXPECT_EQ(error->call, "cuptiPCSamplingEnable");
  auto text = read_file(dir.path() / "out" / gpu_format::kErrorFile);
  ASSERT_TRUE(text);
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 1) << "one line";
}

TEST(OutputFolderTest, CubinsAreNamedByCrcAndWrittenOnce) {
  TempDir dir("gpu-out-");
  OutputFolder out(dir.path());
  const std::string bytes =
      "\x7f"
      "ELF not really a cubin but bytes all the same";
  const uint64_t crc = out.write_cubin(bytes.data(), bytes.size());
  ASSERT_NE(crc, 0u);
  EXPECT_EQ(out.write_cubin(bytes.data(), bytes.size()), crc);
  const fs::path file = dir.path() / "cubins" / (inject::crc_hex(crc) + ".cubin");
  EXPECT_EQ(read_file(file).value(), bytes);
  EXPECT_EQ(inject::crc_hex(0xab), "0x00000000000000ab");
}

TEST(PcAggregateTest, SumsPcsAcrossRetrievalsByName) {
  PcAggregate aggregate;
  Records first, second;
  first.add(7, "_Z1kv", 0x10, {{3, 5}, {4, 4}, {9, 0}});
  first.add(7, "_Z1kv", 0x20, {{9, 2}});
  second.add(7, "_Z1kv", 0x10, {{3, 1}, {77, 6}});
  aggregate.absorb(first.data(20, 1), kNames);
  aggregate.absorb(second.data(10, 0), kNames);
  EXPECT_EQ(aggregate.size(), 2u);
  const auto header = aggregate.header({{"contexts", 1}});
  EXPECT_EQ(header["format"], gpu_format::kSamplesFormat);
  EXPECT_EQ(header["total_samples"], 30);
  EXPECT_EQ(header["dropped_samples"], 1);
  EXPECT_EQ(header["retrievals"], 2);
  EXPECT_EQ(header["contexts"], 1);
  const auto records = aggregate.records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["pc_offset"], 0x10);
  EXPECT_EQ(records[0]["cubin_crc"], "0x0000000000000007");
  EXPECT_EQ(records[0]["stalls"]["smsp__pcsamp_warps_issue_stalled_long_scoreboard"], 6);
  EXPECT_EQ(records[0]["stalls"]["index_77"], 6);
  EXPECT_FALSE(records[0]["stalls"].contains("smsp__pcsamp_warps_issue_stalled_selected"));
}

// Records shaped like CUPTI's, written by the injection library's own writer, read back by kopt
// and attributed on a real cubin through CUPTI's line table.
TEST(OfflineChainTest, SyntheticRecordsOnARealCubinRankTheArithmeticLineFirst) {
  TempDir build("gpu-chain-");
  auto cubin = test::build_test_cubin(build.path(), "chain", true);
  if (!cubin) GTEST_SKIP() << "cannot build a cubin here: " << cubin.error().message;
  auto mapper = CuptiLineMapper::load();
  ASSERT_TRUE(mapper) << mapper.error().message;
  auto bytes = read_file(*cubin);
  ASSERT_TRUE(bytes);

  // The instructions of the arithmetic line, found through the same line table.
  std::vector<uint64_t> arithmetic, other;
  for (uint64_t pc = 0; pc < 0x400; pc += 16) {
    auto where = (*mapper)->locate(*cubin, test::kKernelFunction, pc);
    if (!where) break;
    (where->line == test::kArithmeticLine ? arithmetic : other).push_back(pc);
  }
  ASSERT_FALSE(arithmetic.empty());
  ASSERT_FALSE(other.empty());

  TempDir run("gpu-chain-out-");
  OutputFolder out(run.path());
  const uint64_t crc = out.write_cubin(bytes->data(), bytes->size());
  ASSERT_NE(crc, 0u);
  Records records;
  records.add(crc, test::kKernelFunction, arithmetic.front(), {{3, 70}, {4, 60}, {9, 9}});
  records.add(crc, test::kKernelFunction, other.front(), {{9, 20}});
  PcAggregate aggregate;
  aggregate.absorb(records.data(100, 0), kNames);
  ASSERT_TRUE(out.write_lines(gpu_format::kSamplesFile, aggregate.header({}), aggregate.records()));

  auto data = read_pc_sampling(run.path());
  ASSERT_TRUE(data) << data.error().message;
  SourceFiles sources;
  sources.by_name["kernel.cu"] = test::kKernelSource;
  GpuAttribution profile = attribute(*data, **mapper, sources);
  EXPECT_EQ(profile.unattributed, 0u) << summarize(profile);
  ASSERT_FALSE(profile.lines.empty());
  EXPECT_EQ(profile.lines[0].line, test::kArithmeticLine);
  EXPECT_EQ(profile.lines[0].samples, 79u);
  EXPECT_EQ(profile.lines[0].code, "y[i] = a * x[i] + y[i];");
  const std::string text = summarize(profile);
  EXPECT_NE(text.find("kernel.cu:5  79.8%  y[i] = a * x[i] + y[i];  | long_scoreboard 89%, "
                      "selected 11%"),
            std::string::npos)
      << text;
}

// The real library, loaded as CUDA would load it, in a child process (gtest's death-test fork):
// without a GPU or driver CUPTI cannot subscribe, and the library must say so in error.json and
// return instead of ending the program.
TEST(InjectionLibraryTest, InitializesWithoutAGpuAndRecordsWhy) {
  if (test::no_gpu_reason().empty()) GTEST_SKIP() << "a GPU is present: the device tests cover it";
  TempDir dir("gpu-inject-");
  const fs::path out = dir.path() / "out";
  EXPECT_EXIT(
      {
        setenv(gpu_format::kOutVariable, out.c_str(), 1);
        void* library = dlopen(KOPT_CUPTI_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) std::exit(3);
        auto init = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
        if (init == nullptr) std::exit(4);
        std::exit(init() == 1 ? 0 : 5);
      },
      ::testing::ExitedWithCode(0), "");
  auto started = read_json_file(out / gpu_format::kInjectionFile);
  ASSERT_TRUE(started) << started.error().message;
  EXPECT_EQ((*started)["format"], gpu_format::kInjectionFormat);
  EXPECT_EQ((*started)["mode"], "pcsampling");
  auto error = read_cupti_error(out);
  ASSERT_TRUE(error) << "no error.json";
  EXPECT_EQ(error->call, "cuptiSubscribe");
  EXPECT_FALSE(error->message.empty());
}

TEST(InjectionLibraryTest, AnUnknownModeIsRecorded) {
  TempDir dir("gpu-inject-");
  const fs::path out = dir.path() / "out";
  EXPECT_EXIT(
      {
        setenv(gpu_format::kOutVariable, out.c_str(), 1);
        setenv(gpu_format::kModeVariable, "everything", 1);
        void* library = dlopen(KOPT_CUPTI_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        auto init =
            library ? reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection")) : nullptr;
        std::exit(init && init() == 1 ? 0 : 3);
      },
      ::testing::ExitedWithCode(0), "");
  auto error = read_cupti_error(out);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->reason, "configuration");
  EXPECT_NE(error->message.find("everything"), std::string::npos);
}

}  // namespace
}  // namespace kopt

#else

TEST(InjectionLibraryTest, NotBuilt) {
  GTEST_SKIP() << "CUPTI was not found: no injection library";
}

#endif
