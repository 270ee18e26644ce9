#include "tools/profile/gpu_counters.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpu_test_support.h"

#if KOPT_HAVE_CUPTI_INJECT
#include <cupti_profiler_host.h>
#endif

namespace kopt {
namespace {

using namespace gpu_format;

Json launch(const std::string& kernel, double scale) {
  return {{"range", 0},
          {"name", ""},
          {"kernel", kernel},
          {"metrics",
           {{kMetricFadd, 10 * scale},
            {kMetricFmul, 20 * scale},
            {kMetricFfma, 30 * scale},
            {kMetricDadd, 1 * scale},
            {kMetricDmul, 2 * scale},
            {kMetricDfma, 3 * scale},
            {kMetricInteger, 100 * scale},
            {kMetricDramBytes, 4096 * scale},
            {kMetricDuration, 1500 * scale}}}};
}

class GpuCountersTest : public ::testing::Test {
 protected:
  void write(const std::vector<Json>& launches) {
    std::vector<Json> lines = {{{"format", kCountersFormat},
                                {"chip", "GH100"},
                                {"passes", 2},
                                {"ranges_dropped", 0},
                                {"warnings", Json::array()}}};
    lines.insert(lines.end(), launches.begin(), launches.end());
    test::write_json_lines(dir_.path() / kCountersFile, lines);
  }
  TempDir dir_{"gpu-counters-"};
};

TEST_F(GpuCountersTest, LaunchesAreSummedPerKernelWithFlopsCountingFmaTwice) {
  write({launch("_Z5triadPfPKfS1_fl", 1), launch("_Z4copyPf", 5), launch("_Z5triadPfPKfS1_fl", 2)});
  auto data = read_gpu_counters(dir_.path());
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_EQ(data->chip, "GH100");
  EXPECT_EQ(data->passes, 2u);
  ASSERT_EQ(data->launches.size(), 3u);
  const auto kernels = per_kernel(*data);
  ASSERT_EQ(kernels.size(), 2u);
  const GpuKernelCounters& triad = kernels[0];
  EXPECT_EQ(triad.kernel, "triad(float*, float const*, float const*, float, long)");
  EXPECT_EQ(triad.launches, 2);
  EXPECT_DOUBLE_EQ(triad.fadd, 30);
  EXPECT_DOUBLE_EQ(triad.fp32_flops(), 30 + 60 + 2 * 90);
  EXPECT_DOUBLE_EQ(triad.fp64_flops(), 3 + 6 + 2 * 9);
  EXPECT_DOUBLE_EQ(triad.integer, 300);
  EXPECT_DOUBLE_EQ(triad.dram_bytes, 3 * 4096);
  EXPECT_DOUBLE_EQ(triad.duration_ns, 4500);
  EXPECT_EQ(kernels[1].kernel, "copy(float*)");
  EXPECT_EQ(kernels[1].launches, 1);
}

TEST_F(GpuCountersTest, TheRooflineGetsOneAverageExecution) {
  write({launch("_Z4copyPf", 1), launch("_Z4copyPf", 3)});
  const auto kernels = per_kernel(read_gpu_counters(dir_.path()).value());
  ASSERT_EQ(kernels.size(), 1u);
  const KernelCounters counters = to_kernel_counters(kernels[0]);
  EXPECT_EQ(counters.kernel, "copy(float*)");
  EXPECT_DOUBLE_EQ(counters.seconds, 3000e-9);
  EXPECT_DOUBLE_EQ(counters.dram_bytes, 2 * 4096);
  EXPECT_DOUBLE_EQ(counters.fp32_flops, 2 * (10 + 20 + 2 * 30));
  EXPECT_DOUBLE_EQ(counters.fp64_flops, 2 * (1 + 2 + 2 * 3));
  EXPECT_DOUBLE_EQ(counters.int_ops, 200);
}

TEST_F(GpuCountersTest, JsonCarriesTheDerivedFlops) {
  write({launch("_Z4copyPf", 1)});
  Json json = to_json(per_kernel(read_gpu_counters(dir_.path()).value()));
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["fp32"]["flops"], 90.0);
  EXPECT_EQ(json[0]["fp64"]["flops"], 9.0);
  EXPECT_EQ(json[0]["dram_bytes"], 4096.0);
}

TEST_F(GpuCountersTest, ARangeWithoutAKernelNameUsesTheRangeName) {
  Json unnamed = launch("", 1);
  unnamed["name"] = "_Z4copyPf";
  write({unnamed});
  EXPECT_EQ(per_kernel(read_gpu_counters(dir_.path()).value()).at(0).kernel, "copy(float*)");
}

TEST_F(GpuCountersTest, MissingOrForeignFilesAreRefused) {
  EXPECT_FALSE(read_gpu_counters(dir_.path()));
  test::write_json_lines(dir_.path() / kCountersFile, {{{"format", "other/1"}}});
  auto data = read_gpu_counters(dir_.path());
  ASSERT_FALSE(data);
  EXPECT_NE(data.error().message.find(kCountersFormat), std::string::npos);
}

#if KOPT_HAVE_CUPTI_INJECT
template <class Params>
Params params(size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

// CUPTI's host API builds a counter configuration for a named chip without a GPU: the metrics
// kopt asks for must exist on the H100/H200 chip (GH100).
TEST(GpuMetricNamesTest, EveryMetricExistsOnGH100) {
  auto init = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = "GH100";
  ASSERT_EQ(cuptiProfilerHostInitialize(&init), CUPTI_SUCCESS);
  std::vector<const char*> names(std::begin(kCounterMetrics), std::end(kCounterMetrics));
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  EXPECT_EQ(cuptiProfilerHostConfigAddMetrics(&add), CUPTI_SUCCESS);
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = init.pHostObject;
  EXPECT_EQ(cuptiProfilerHostGetConfigImageSize(&size), CUPTI_SUCCESS);
  EXPECT_GT(size.configImageSize, 0u);
  for (const char* metric : kCounterMetrics) {
    auto properties = params<CUpti_Profiler_Host_GetMetricProperties_Params>(
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    properties.pHostObject = init.pHostObject;
    properties.pMetricName = metric;
    EXPECT_EQ(cuptiProfilerHostGetMetricProperties(&properties), CUPTI_SUCCESS) << metric;
  }
  auto done = params<CUpti_Profiler_Host_Deinitialize_Params>(
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  done.pHostObject = init.pHostObject;
  cuptiProfilerHostDeinitialize(&done);
}
#endif

}  // namespace
}  // namespace kopt
