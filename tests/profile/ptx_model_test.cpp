// The static PTX model on kernels written for it (tests/fixtures/roofline/file/constructs.cu),
// compiled once with nvcc (skipped where the toolkit is missing), and the reader on hand-written
// PTX for the constructs nvcc emits only in larger programs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tools/roofline/ptx_cost.h"
#include "util/files.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

const std::string& constructs_ptx() {
  static const std::string ptx = [] {
    const fs::path nvcc = "/usr/local/cuda/bin/nvcc";
    if (!fs::exists(nvcc)) return std::string();
    const fs::path dir = fs::temp_directory_path() / ("kopt-ptx-test-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path src = fs::path(KOPT_TEST_FIXTURES) / "roofline" / "file" / "constructs.cu";
    const std::string cmd = nvcc.string() + " -ptx -O3 -arch=compute_80 " + src.string() + " -o " +
                            (dir / "k.ptx").string() + " 2>&1";
    std::string text;
    if (std::system(cmd.c_str()) == 0) text = read_file(dir / "k.ptx").value_or("");
    fs::remove_all(dir);
    return text;
  }();
  return ptx;
}

KernelEstimate only(const std::string& kernel, PtxOptions options = {}) {
  options.kernel = kernel;
  auto all = cost_ptx_kernels(constructs_ptx(), options);
  EXPECT_EQ(all.size(), 1u) << kernel;
  return all.empty() ? KernelEstimate{} : all.front();
}

double ai(double work, const KernelEstimate& e) {
  return work / e.counters.dram_bytes;
}

// Hand-written PTX: an entry `k` of one pointer parameter (in %rd2, a global address) with
// registers %p, %r, %f and %rd to spare, around `body`.
std::string one_pointer_kernel(const std::string& body) {
  return R"(
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;)" +
         body + "}\n";
}

#define NEED_NVCC() \
  if (constructs_ptx().empty()) GTEST_SKIP() << "nvcc not installed"

TEST(PtxModelTest, InlinedFp64MathIsCountedThroughNestedBlocks) {
  NEED_NVCC();
  const KernelEstimate e = only("fp64_math");
  EXPECT_GT(e.counters.fp64_flops / e.threads, 20);          // sin and exp polynomials
  EXPECT_NEAR(e.counters.dram_bytes / e.threads, 16, 0.01);  // in and out; the tables are cached
}

TEST(PtxModelTest, DeviceFunctionCountsAtEachCallSite) {
  NEED_NVCC();
  const KernelEstimate e = only("device_calls");
  EXPECT_DOUBLE_EQ(e.counters.fp32_flops / e.threads, 2 * 8 * 2 + 2);  // two calls of 8 FMAs
  EXPECT_EQ(e.calls_not_inlined, 0);
}

TEST(PtxModelTest, ParameterBoundLoopIsAssumedUnlessGiven) {
  NEED_NVCC();
  const KernelEstimate guessed = only("param_loop");
  EXPECT_TRUE(std::any_of(guessed.loops.begin(), guessed.loops.end(),
                          [](const PtxLoop& l) { return !l.known; }));
  PtxOptions given;
  given.args = {std::nullopt, std::nullopt, 1000.0};
  const KernelEstimate e = only("param_loop", given);
  EXPECT_NEAR(e.counters.fp32_flops / e.threads, 3 * 1000, 3 * 4);  // mul + fma per iteration
}

TEST(PtxModelTest, GridStrideLoopTakesItsTripsFromTheLaunch) {
  NEED_NVCC();
  PtxOptions o;
  o.launch = {{128, 1, 1}, {100, 1, 1}};  // block, grid
  o.args = {std::nullopt, std::nullopt, std::nullopt, 128.0 * 100 * 10};
  const KernelEstimate e = only("grid_stride", o);
  ASSERT_EQ(e.loops.size(), 1u);
  EXPECT_TRUE(e.loops[0].known);
  EXPECT_NEAR(e.loops[0].trips, 10, 1);
  EXPECT_NEAR(ai(e.counters.fp32_flops, e), 2.0 / 12, 0.01);  // a triad stays streaming
}

TEST(PtxModelTest, HalvingLoopRunsLog2OfTheBlock) {
  NEED_NVCC();
  PtxOptions o;
  o.launch = {{256, 1, 1}, {64, 1, 1}};  // block, grid
  const KernelEstimate e = only("tree_sum", o);
  ASSERT_EQ(e.loops.size(), 1u);
  EXPECT_TRUE(e.loops[0].known) << e.loops[0].bound;
  EXPECT_DOUBLE_EQ(e.loops[0].trips, 8);
}

TEST(PtxModelTest, TileLoopsStartingAtAThreadIndexHaveKnownTrips) {
  NEED_NVCC();
  PtxOptions o;
  o.launch = {{32, 8, 1}, {64, 1, 1}};  // block, grid
  const KernelEstimate e = only("tile_rows", o);
  ASSERT_FALSE(e.loops.empty());
  for (const auto& loop : e.loops) EXPECT_TRUE(loop.known) << loop.bound;
  EXPECT_NEAR(e.executed_bytes / e.threads, 4 * 4 + 4 * 4, 2);  // four loads, four stores
}

TEST(PtxModelTest, GuardSkippingAnUnrolledLoopIsEvaluated) {
  NEED_NVCC();
  PtxOptions o;
  o.launch = {{32, 1, 1}, {64, 1, 1}};
  const KernelEstimate e = only("halo_row", o);
  // 34 loads and 32 stores a block: about one load and one store a thread, not the unrolled
  // loop's four loads on top.
  EXPECT_LT(e.executed_bytes / e.threads, 4 * 3);
  EXPECT_GE(e.executed_bytes / e.threads, 4 * 2);
}

TEST(PtxModelTest, PollingLoopIsAssumedToFindItsValueAtOnce) {
  NEED_NVCC();
  PtxOptions o;
  o.launch = {{256, 1, 1}, {64, 1, 1}};
  const KernelEstimate e = only("chained_blocks", o);
  ASSERT_EQ(e.loops.size(), 1u);
  EXPECT_EQ(e.loops[0].trips, 1);
  EXPECT_NE(e.loops[0].bound.find("wait"), std::string::npos) << e.loops[0].bound;
  EXPECT_NEAR(e.executed_bytes / e.threads, 8, 0.1);  // the flags: thread 0 only
}

TEST(PtxModelTest, GuardsOnAThreadIndexCountOnlyTheThreadsThatPassThem) {
  NEED_NVCC();
  PtxOptions o;
  o.launch = {{256, 1, 1}, {100, 1, 1}};
  const KernelEstimate e = only("block_atomics", o);
  EXPECT_DOUBLE_EQ(e.global_atomics, 100 * (256 / 32 + 1));  // each warp's lane 0, thread 0
  EXPECT_DOUBLE_EQ(e.executed_bytes, 4 * (256 * 100 + e.global_atomics));
}

// Written by hand, so that it runs without nvcc: a comparison of threadIdx.x with half the block
// (a register, not a constant) splits the threads, so neither side may be dropped; a loop that
// rereads a counter it also stores is a counter, not a wait on a flag.
TEST(PtxModelTest, ThreadDependentComparisonsAndCountersInMemoryKeepTheirWork) {
  const std::string ptx = one_pointer_kernel(R"(
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ntid.x;
	shr.u32 	%r3, %r2, 1;
	setp.lt.u32 	%p1, %r1, %r3;
	@%p1 bra 	$L__BB0_2;
	ld.global.f32 	%f1, [%rd2];
	mul.f32 	%f2, %f1, %f1;
	st.global.f32 	[%rd2], %f2;
$L__BB0_2:
	ld.global.u32 	%r4, [%rd2+8];
	add.s32 	%r5, %r4, 1;
	st.global.u32 	[%rd2+8], %r5;
	setp.lt.s32 	%p2, %r4, 100;
	@%p2 bra 	$L__BB0_2;
	ret;
)");
  PtxOptions o;
  o.launch = {{256, 1, 1}, {10, 1, 1}};
  const auto all = cost_ptx_kernels(ptx, o);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_GT(all[0].counters.fp32_flops, 0);  // the upper half's multiply is kept
  ASSERT_EQ(all[0].loops.size(), 1u);
  EXPECT_EQ(all[0].loops[0].trips, o.default_trips) << all[0].loops[0].bound;
}

// nvcc places a guarded block after the kernel's ret and branches back from it: no loop.
TEST(PtxModelTest, BranchBackFromABlockAfterRetIsNoLoop) {
  const std::string ptx = one_pointer_kernel(R"(
	mov.u32 	%r1, %tid.x;
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__BB0_3;
	bra.uni 	$L__BB0_1;
$L__BB0_1:
	ld.global.f32 	%f1, [%rd2];
	add.f32 	%f2, %f1, %f1;
	st.global.f32 	[%rd2], %f2;
	ret;
$L__BB0_3:
	atom.global.add.f32 	%f2, [%rd2], %f1;
	bra.uni 	$L__BB0_1;
)");
  PtxOptions o;
  o.launch = {{128, 1, 1}, {10, 1, 1}};
  const auto all = cost_ptx_kernels(ptx, o);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_TRUE(all[0].loops.empty());
  EXPECT_DOUBLE_EQ(all[0].counters.fp32_flops, 128 * 10);  // every thread, once
  EXPECT_DOUBLE_EQ(all[0].global_atomics, 10);             // thread 0 of each block
}

TEST(PtxModelTest, AllPairsAndSharedTilesReuseTheirData) {
  NEED_NVCC();
  PtxOptions o;
  o.args = {std::nullopt, std::nullopt, 4096.0};
  const KernelEstimate pairs = only("all_pairs", o);
  EXPECT_GT(ai(pairs.counters.fp32_flops, pairs), 100);
  o.args = {std::nullopt, std::nullopt, std::nullopt, 1024.0};
  o.launch = {{16, 16, 1}, {64, 64, 1}};  // block, grid
  const KernelEstimate mm = only("tiled_matmul", o);
  EXPECT_NEAR(mm.counters.dram_bytes, 3.0 * 4 * 1024 * 1024, 1024);  // a, b read once, c written
  EXPECT_NEAR(mm.counters.fp32_flops, 2.0 * 1024 * 1024 * 1024, 1e6);
}

TEST(PtxModelTest, SharedMemoryOnlyKernelHasNoGlobalTraffic) {
  NEED_NVCC();
  const KernelEstimate e = only("shared_only");
  EXPECT_EQ(e.executed_bytes, 0);
  EXPECT_EQ(e.counters.dram_bytes, 0);
}

TEST(PtxModelTest, EachTemplateInstantiationIsItsOwnKernel) {
  NEED_NVCC();
  PtxOptions o;
  o.kernel = "stencil";
  const auto both = cost_ptx_kernels(constructs_ptx(), o);
  ASSERT_EQ(both.size(), 2u);
  const KernelEstimate four = only("stencil<4>");
  EXPECT_DOUBLE_EQ(four.counters.fp32_flops / four.threads, 9);  // 9 adds (0 + x is kept)
  EXPECT_DOUBLE_EQ(four.counters.dram_bytes / four.threads, 8);  // neighbours shared
}

TEST(PtxModelTest, ReaderJoinsMultiLineCallsAndInlinesTheCallee) {
  const std::string ptx = R"(
.func  (.param .b32 func_retval0) twice(
	.param .b32 twice_param_0
)
{
	.reg .f32 	%f<3>;
	ld.param.f32 	%f1, [twice_param_0];
	add.f32 	%f2, %f1, %f1;
	st.param.f32 	[func_retval0+0], %f2;
	ret;
}
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.global.f32 	%f1, [%rd2];
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0),
	twice,
	(
	param0
	);
	ld.param.f32 	%f2, [retval0+0];
	}
	{
	.reg .b32 %inner;
	mul.f32 	%f3, %f2, %f2;
	}
	st.global.f32 	[%rd2], %f3;
	ret;
}
)";
  const auto all = cost_ptx_kernels(ptx, {});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_DOUBLE_EQ(all[0].counters.fp32_flops / all[0].threads, 2);  // the callee's add, the mul
  EXPECT_EQ(all[0].calls_not_inlined, 0);
}

TEST(PtxModelTest, KernelNamesMatchPlainTemplatedAndQualified) {
  EXPECT_TRUE(
      kernel_matches("k", "void k<256, 1024>(int const*, int*)", "_Z1kILi256ELi1024EEvPKiPi"));
  EXPECT_TRUE(kernel_matches("k<256,1024>", "void k<256, 1024>(int const*)", "x"));
  EXPECT_FALSE(kernel_matches("k<128>", "void k<256>(int const*)", "x"));
  EXPECT_TRUE(kernel_matches("kern", "ns::kern(float*)", "x"));
  EXPECT_FALSE(kernel_matches("ern", "kern(float*)", "x"));
  EXPECT_TRUE(kernel_matches("vhgw<1>", "void vhgw<(MorphOpType)1>(unsigned char*)", "x"));
  EXPECT_TRUE(kernel_matches("shuffle<float, 0>", "void shuffle<float, false>(float*)", "x"));
  EXPECT_TRUE(kernel_matches("g<19>", "void g<19u>(float*)", "x"));
}

}  // namespace
}  // namespace kopt
