// The CUDA time model (tools/predict/gpu_time.h), its calibration's fit and file
// (gpu_calibration.h), and the launch tracer's output (gpu_trace.h), on hand-made work and
// text; the tracer itself on a suite benchmark where nvcc is installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tools/eval/toolchain.h"
#include "tools/machine/hardware.h"
#include "tools/predict/gpu_calibration.h"
#include "tools/predict/gpu_time.h"
#include "tools/predict/gpu_trace.h"
#include "tools/roofline/ptx_cost.h"
#include "tools/roofline/ptx_module.h"

namespace kopt {
namespace {

HardwareSpec h100() {
  return find_hardware("h100").value();
}

GpuLaunchWork full_grid_work() {
  GpuLaunchWork w;
  w.kernel = "k";
  w.launch.grid = {132 * 8, 1, 1};
  w.launch.block = {256, 1, 1};
  return w;
}

TEST(GpuTimeModelTest, ATriadIsMemoryBoundAtItsBytesOverTheBandwidth) {
  GpuLaunchWork w = full_grid_work();
  const double n = 1 << 28;
  w.dram_bytes = 12 * n, w.fp32_flops = 2 * n, w.int_ops = 4 * n;
  const GpuEfficiency e;
  const GpuTimePrediction p = predict_gpu_call({w}, h100(), e, true);
  EXPECT_EQ(p.bound, "memory");
  EXPECT_NEAR(p.launches[0].seconds, 12 * n / (3.35e12 * e.memory), 1e-9);
  EXPECT_NEAR(p.seconds, p.launches[0].seconds + e.first_launch_seconds, 1e-12);
}

TEST(GpuTimeModelTest, ATinyKernelTakesTheLaunchOverhead) {
  GpuLaunchWork w = full_grid_work();
  w.dram_bytes = 4096, w.fp32_flops = 1024;
  const GpuEfficiency e;
  const GpuTimePrediction p = predict_gpu_call({w}, h100(), e, true);
  EXPECT_EQ(p.bound, "launch overhead");
  EXPECT_NEAR(p.seconds, e.first_launch_seconds, 0.01 * e.first_launch_seconds);
}

TEST(GpuTimeModelTest, AComputeKernelScalesWithItsFmas) {
  GpuLaunchWork w = full_grid_work();
  w.fp32_flops = 1e12, w.dram_bytes = 1e6;
  const GpuLaunchTime once = predict_gpu_launch(w, h100(), {});
  w.fp32_flops *= 2;
  const GpuLaunchTime twice = predict_gpu_launch(w, h100(), {});
  EXPECT_EQ(once.bound, "fp32");
  EXPECT_NEAR(twice.seconds, 2 * once.seconds, 1e-12);
}

TEST(GpuTimeModelTest, AGridOfFewBlocksGetsItsShareOfTheSms) {
  GpuLaunchWork w = full_grid_work();
  w.fp64_flops = 1e11;
  const GpuLaunchTime full = predict_gpu_launch(w, h100(), {});
  w.launch.grid = {33, 1, 1};  // a quarter of the H100's 132 SMs
  const GpuLaunchTime quarter = predict_gpu_launch(w, h100(), {});
  EXPECT_DOUBLE_EQ(quarter.busy, 0.25);
  EXPECT_NEAR(quarter.seconds, 4 * full.seconds, 1e-12);
  const GpuTimePrediction p = predict_gpu_call({w}, h100(), {}, true);
  EXPECT_NE(p.notes.front().find("25%"), std::string::npos) << p.notes.front();
}

TEST(GpuTimeModelTest, AtomicsAndLaunchesAddUp) {
  GpuLaunchWork w = full_grid_work();
  w.global_atomics = 1e9, w.dram_bytes = 1e6;
  GpuEfficiency e;
  e.atomics_per_second = 1e11;
  const GpuTimePrediction p = predict_gpu_call({w, w, w}, h100(), e, false);
  EXPECT_EQ(p.bound, "atomics");
  EXPECT_NEAR(p.overhead_seconds, e.first_launch_seconds + 2 * e.next_launch_seconds, 1e-15);
  EXPECT_NEAR(p.seconds, 3 * 1e-2 + p.overhead_seconds, 1e-12);
  EXPECT_NE(p.notes.back().find("uncalibrated"), std::string::npos);
  EXPECT_EQ(to_json(p)["launches"].size(), 3u);
}

std::map<std::string, GpuSweepPoint> sweep() {
  std::map<std::string, GpuSweepPoint> points;
  points["kg_stream"] = {.seconds = 1e-3, .dram_bytes = 3e9};
  points["kg_fma32"] = {.seconds = 1e-2, .fp32_flops = 5e11};
  points["kg_fma64"] = {.seconds = 1e-2, .fp64_flops = 2.5e11};
  points["kg_int"] = {.seconds = 1e-2, .int_ops = 1e11};
  points["kg_atomic"] = {.seconds = 1e-3, .global_atomics = 5e7};
  points["launch_1"] = {.seconds = 5e-6};
  points["launch_100"] = {.seconds = 5e-6 + 99 * 2e-6};
  return points;
}

TEST(GpuCalibrationTest, FitsRatesOverTheTablesPeaks) {
  auto e = fit_gpu_efficiency(sweep(), h100());
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_NEAR(e->memory, 3e12 / 3.35e12, 1e-9);
  EXPECT_NEAR(e->fp32, 5e13 / 66.9e12, 1e-9);
  EXPECT_NEAR(e->fp64, 2.5e13 / 33.5e12, 1e-9);
  EXPECT_NEAR(e->atomics_per_second, 5e10, 1);
  EXPECT_NEAR(e->first_launch_seconds, 5e-6, 1e-12);
  EXPECT_NEAR(e->next_launch_seconds, 2e-6, 1e-12);
}

TEST(GpuCalibrationTest, ASweepWithoutAPointOrWorkIsAnError) {
  auto points = sweep();
  points.erase("kg_int");
  EXPECT_FALSE(fit_gpu_efficiency(points, h100()));
  points = sweep();
  points["kg_stream"].dram_bytes = 0;
  auto e = fit_gpu_efficiency(points, h100());
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("kg_stream"), std::string::npos);
  points = sweep();
  points["kg_fma64"].seconds *= 1e-3;  // A thousand times the table's FP64 peak.
  e = fit_gpu_efficiency(points, h100());
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("FP64 efficiency"), std::string::npos) << e.error().message;
}

TEST(GpuCalibrationTest, ItsDocumentRoundTripsAndABadOneIsRefused) {
  GpuCalibration c;
  c.efficiency = fit_gpu_efficiency(sweep(), h100()).value();
  c.gpu = "NVIDIA H100 80GB HBM3, 580.159.04";
  c.hardware = "h100";
  auto back = gpu_calibration_from_json(to_json(c));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->gpu, c.gpu);
  EXPECT_DOUBLE_EQ(back->efficiency.memory, c.efficiency.memory);
  EXPECT_DOUBLE_EQ(back->efficiency.next_launch_seconds, c.efficiency.next_launch_seconds);
  Json bad = to_json(c);
  bad["fp32_efficiency"] = 0;
  EXPECT_FALSE(gpu_calibration_from_json(bad));
  bad = to_json(c);
  bad["format"] = "kopt-calibration/1";
  EXPECT_FALSE(gpu_calibration_from_json(bad));
  // Figures no GPU measures: a cached document with them is measured again.
  for (const auto& [key, value] : {std::pair{"memory_efficiency", 1e6},
                                   {"int_efficiency", 2.0},
                                   {"atomics_per_second", 1e300},
                                   {"first_launch_seconds", 5.0},
                                   {"next_launch_seconds", -1e-6}}) {
    bad = to_json(c);
    bad[key] = value;
    auto refused = gpu_calibration_from_json(bad);
    ASSERT_FALSE(refused) << key;
    EXPECT_NE(refused.error().message.find("outside"), std::string::npos) << key;
  }
}

TEST(GpuCalibrationTest, NamesTheTableEntryOfAGpu) {
  EXPECT_EQ(hardware_name_of_gpu("NVIDIA H100 80GB HBM3, 580.159.04"), "h100");
  EXPECT_EQ(hardware_name_of_gpu("NVIDIA H200, 570.1"), "h200");
  EXPECT_EQ(hardware_name_of_gpu("Tesla T4, 535"), "");
}

TEST(GpuCalibrationTest, WithoutAGpuItSaysSo) {
  if (gpu_present()) GTEST_SKIP() << "this machine has a GPU: the sweep would run";
  ExecutionContext ctx;
  auto c = gpu_calibration(ctx);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("no NVIDIA GPU"), std::string::npos) << c.error().message;
}

constexpr const char* kTracePtx = R"(
.visible .entry _Z5triadPfPKfS1_fll(
	.param .u64 _Z5triadPfPKfS1_fll_param_0,
	.param .u64 _Z5triadPfPKfS1_fll_param_1,
	.param .u64 _Z5triadPfPKfS1_fll_param_2,
	.param .f32 _Z5triadPfPKfS1_fll_param_3,
	.param .u64 _Z5triadPfPKfS1_fll_param_4,
	.param .align 8 .b8 _Z5triadPfPKfS1_fll_param_5[16]
)
{
	ret;
}
)";

TEST(GpuTraceTest, ReadsTheKernelsLaunchesAndSkipsTheHarnesss) {
  const auto module = parse_ptx_module(kTracePtx);
  ASSERT_EQ(module.size(), 1u);
  EXPECT_EQ(module[0].param_types,
            (std::vector<std::string>{".u64", ".u64", ".u64", ".f32", ".u64", ".b8[16]"}));
  const std::string output =
      "kopt-launch _ZN10kopt_bench4cuda6detail11fill_kernelIjEEvPT_mS3_ 4 1 1 256 1 1 0\n"
      "kopt-launch _Z5triadPfPKfS1_fll 8192 2 1 256 1 1 0 p p p 0000c03f 0000100000000000 "
      "00000000000000000000000000000000\n"
      "something else\n";
  const auto launches = parse_launch_trace(output, module);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].launch.grid[0], 8192);
  EXPECT_EQ(launches[0].launch.grid[1], 2);
  EXPECT_EQ(launches[0].launch.block[0], 256);
  ASSERT_EQ(launches[0].args.size(), 6u);
  EXPECT_FALSE(launches[0].args[0]);
  EXPECT_DOUBLE_EQ(launches[0].args[3].value(), 1.5);
  EXPECT_DOUBLE_EQ(launches[0].args[4].value(), 1 << 20);
  EXPECT_FALSE(launches[0].args[5]);  // an aggregate
}

// A line only like the tracer's (the benchmark's or a candidate's own code may print one): a grid
// of 1e308 blocks once predicted "inf ms", one of -5 blocks a positive time.
TEST(GpuTraceTest, SkipsLaunchesCudaCouldNotMake) {
  const auto module = parse_ptx_module(kTracePtx);
  const std::string name = "_Z5triadPfPKfS1_fll";
  std::string output;
  for (const char* dims : {"1e308 1 1 256 1 1 0", "-5 1 1 256 1 1 0", "0 1 1 256 1 1 0",
                           "2.5 1 1 256 1 1 0", "8 1 1 2048 1 1 0", "8 1 1 32 32 2 0",
                           "8 70000 1 256 1 1 0", "8 1 1 256 1 1 -1", "8 1 1 256 1 1 0"})
    output += "kopt-launch " + name + " " + dims + " p p p\n";
  const auto launches = parse_launch_trace(output, module);
  ASSERT_EQ(launches.size(), 1u);  // Only the last.
  EXPECT_EQ(launches[0].launch.grid[0], 8);
  EXPECT_EQ(launches[0].launch.block[0], 256);
}

TEST(GpuTraceTest, DecodesSignedAndFloatingParameters) {
  EXPECT_DOUBLE_EQ(decode_param("ffffffff", ".s32").value(), -1);
  EXPECT_DOUBLE_EQ(decode_param("ffffffff", ".u32").value(), 4294967295.0);
  EXPECT_DOUBLE_EQ(decode_param("000000000000f03f", ".f64").value(), 1.0);
  EXPECT_FALSE(decode_param("p", ".u64"));
  EXPECT_FALSE(decode_param("00", ".u64"));  // the wrong width
}

TEST(GpuTraceTest, TheConfigListsEachEntrysParameterSizes) {
  const std::string config = trace_config(parse_ptx_module(kTracePtx), h100());
  EXPECT_NE(config.find("KOPT_TRACE_SMS 132"), std::string::npos) << config;
  EXPECT_NE(config.find("{\"_Z5triadPfPKfS1_fll\", \"8,8,8,4,8,16\"}"), std::string::npos)
      << config;
}

// nvcc unrolls `for (long j = 0; j < n; ++j)` by four and counts an offset register,
// (n & 3) - n + i, up to zero: the trip count is read from it.
constexpr const char* kUnrolledPtx = R"(
.visible .entry unrolled(
	.param .u64 unrolled_param_0,
	.param .u64 unrolled_param_1
)
{
	ld.param.u64 	%rd1, [unrolled_param_0];
	ld.param.u64 	%rd37, [unrolled_param_1];
	and.b64  	%rd6, %rd37, 3;
	sub.s64 	%rd7, %rd6, %rd37;
	mov.u64 	%rd65, 0;
$L__BB0_4:
	ld.global.f32 	%f1, [%rd1];
	add.f32 	%f2, %f1, %f1;
	add.s64 	%rd65, %rd65, 4;
	add.s64 	%rd51, %rd7, %rd65;
	setp.ne.s64 	%p4, %rd51, 0;
	@%p4 bra 	$L__BB0_4;
	ret;
}
)";

TEST(GpuTraceTest, AnUnrolledLoopsTripsComeFromItsOffsetCounter) {
  PtxOptions options;
  options.args = {std::nullopt, 65536};
  const auto all = cost_ptx_kernels(kUnrolledPtx, options);
  ASSERT_EQ(all.size(), 1u);
  ASSERT_EQ(all[0].loops.size(), 1u);
  EXPECT_TRUE(all[0].loops[0].known) << all[0].loops[0].bound;
  EXPECT_DOUBLE_EQ(all[0].loops[0].trips, 65536 / 4);
}

}  // namespace
}  // namespace kopt
