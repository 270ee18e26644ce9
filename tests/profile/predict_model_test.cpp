// The time prediction's counts on small kernels written for each construct, compiled by the
// real clang and read by opt (the analysis a prediction runs), and the model's arithmetic.
#include <gtest/gtest.h>

#include "sandbox/process.h"
#include "tools/eval/build.h"
#include "tools/predict/llm_time.h"
#include "tools/predict/predict.h"
#include "tools/roofline/static_cpu.h"
#include "util/files.h"

namespace kopt {
namespace {

class PredictCountsTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx_ = default_context(runner_, true); }

  // The counts of `function` in `source` (IrFlavor::native flags) with its arguments.
  StaticCounts count(const std::string& source, const std::string& function,
                     std::vector<std::optional<double>> arguments, double size = 4096) {
    TempDir dir("predict-test-", ctx_.work_root);
    EXPECT_TRUE(write_file(dir.path() / "k.cpp", source).ok());
    share_workspace(dir.path(), ctx_.policy);
    auto module = compile_ir(ctx_, dir.path(), native_ir_flags({"-std=c++20"}), "k.cpp");
    EXPECT_TRUE(module.ok()) << (module ? "" : module.error().message);
    if (!module) return {};
    TripAssumptions assume;
    assume.size = size;
    assume.arguments = std::move(arguments);
    return cost_module(module->functions, module->facts, {function}, assume);
  }

  LocalProcessRunner runner_;
  ExecutionContext ctx_;
};

TEST_F(PredictCountsTest, ARunningSumIsOneChainStepPerElement) {
  const StaticCounts c = count(
      "double sum(const double* x, long n) { double s = 0; for (long i = 0; i < n; ++i) s += "
      "x[i]; return s; }",
      "sum", {std::nullopt, 4096.0});
  EXPECT_DOUBLE_EQ(c.chain_steps, 4096);  // in order: no reassociation without fast-math
  EXPECT_EQ(c.unknown_trip_loops, 0);
}

TEST_F(PredictCountsTest, AnOpenMpSimdReductionIsVectorizedAndItsChainShorter) {
  const StaticCounts c = count(
      "double sum(const double* x, long n) { double s = 0;\n#pragma omp simd reduction(+ : s)\n"
      "for (long i = 0; i < n; ++i) s += x[i]; return s; }",
      "sum", {std::nullopt, 4096.0});
  EXPECT_GT(c.chain_steps, 0);
  EXPECT_LE(c.chain_steps, 4096 / 2);  // at least two lanes a step on any x86-64
}

TEST_F(PredictCountsTest, IndependentElementsMakeNoChain) {
  const StaticCounts c = count(
      "void mul(double* __restrict a, const double* b, const double* c, long n) { for "
      "(long i = 0; i < n; ++i) a[i] = b[i] * c[i]; }",
      "mul", {std::nullopt, std::nullopt, std::nullopt, 4096.0});
  EXPECT_EQ(c.chain_steps, 0);
  EXPECT_GT(c.instructions, 0);
  EXPECT_LT(c.instructions, 4 * 4096);  // vectorized: fewer than 4 instructions an element
  EXPECT_NEAR(c.counters.dram_bytes, 3 * 8 * 4096, 64);
}

TEST_F(PredictCountsTest, AShortInnerChainOverlapsAcrossOuterIterations) {
  // A Horner polynomial per element: its 8-step chain restarts for every element.
  const StaticCounts c = count(
      "void poly(double* __restrict y, const double* x, long n) { for (long i = 0; i < n; ++i) "
      "{ double p = 1; for (int k = 0; k < 8; ++k) p = p * x[i] + 0.5; y[i] = p; } }",
      "poly", {std::nullopt, std::nullopt, 4096.0});
  EXPECT_EQ(c.chain_steps, 0);
}

TEST_F(PredictCountsTest, DivisionsRootsAndLibraryCallsAreCountedApart) {
  const StaticCounts c = count(
      "#include <cmath>\nvoid f(double* __restrict y, const double* x, long n) { for (long i = "
      "0; i < n; ++i) y[i] = std::exp(x[i]) + std::sqrt(x[i]) / (x[i] + 1.0); }",
      "f", {std::nullopt, std::nullopt, 1000.0});
  EXPECT_GE(c.divides, 1000.0);  // the division and the root (per instruction)
  EXPECT_DOUBLE_EQ(c.special_calls - c.square_roots, 1000.0);  // exp
}

TEST_F(PredictCountsTest, TripCountsThroughSelectsAndMinimums) {
  // The interior range of a stencil: bounds from a min, a select and a division.
  const StaticCounts c = count(
      "void interior(double* __restrict y, const double* x, long n, int r) { const long lo = r "
      "< n ? r : n; const long hi = n - r > lo ? n - r : lo; const long blocks = (hi - lo) / "
      "32; for (long b = 0; b < blocks; ++b) for (long j = 0; j < 32; ++j) y[lo + b * 32 + j] "
      "= 2 * x[lo + b * 32 + j]; }",
      "interior", {std::nullopt, std::nullopt, 4096.0, 16.0});
  EXPECT_EQ(c.unknown_trip_loops, 0);
  EXPECT_NEAR(c.counters.fp64_flops, 4064, 64);  // (4096 - 32) / 32 blocks of 32
}

TEST_F(PredictCountsTest, ATimeStepLoopAroundASweepDoesNotMultiplyItsFootprint) {
  // 50 steps over blocks of a local container (trap_particles' human version in small): the
  // sweep's extent is unknown and scalar evolution calls its addresses variant in the step
  // loop (an inner loop's recurrence), yet every step sweeps the same blocks.
  const StaticCounts c = count(
      "#include <vector>\ntypedef double Lanes __attribute__((vector_size(64)));\nstruct Block "
      "{ Lanes p, v; };\nvoid steps(const double* x, double* y, long n) { std::vector<Block> "
      "blocks((n + 7) / 8, Block{}); for (long i = 0; i < n; ++i) blocks[i / 8].p[i % 8] = "
      "x[i]; for (int t = 0; t < 50; ++t) for (Block& b : blocks) { b.v += 0.5 * b.p; b.p += "
      "b.v; } for (long i = 0; i < n; ++i) y[i] = blocks[i / 8].p[i % 8]; }",
      "steps", {std::nullopt, std::nullopt, 4096.0});
  // x, y and the blocks' two fields, each field access counted apart: 12 x 8n bytes. Each
  // step's sweep counted again would be 20 x 8n (measured with the rule removed).
  EXPECT_LE(c.counters.dram_bytes, 14 * 8 * 4096);
  EXPECT_GE(c.counters.dram_bytes, 4 * 8 * 4096);
}

TEST_F(PredictCountsTest, ALocalArrayIsScratchNotCompulsoryBytes) {
  // A function called once a block counts its 64 values into a histogram: on its own stack,
  // the histogram's bytes stay in the caches whatever the number of calls; in memory it is
  // handed, they count.
  const auto source = [](const std::string& parameter, const std::string& local) {
    return "__attribute__((noinline)) static void block(const double* x, double* o" + parameter +
           ") { " + local +
           " for (int k = 0; k < 64; ++k) h[static_cast<long>(x[k]) & 63] += 1; o[0] = h[0] + "
           "h[63]; }\nvoid f(const double* x, double* out, double* s, long n) { for (long i = "
           "0; i < n; i += 64) block(x + i, out + i / 64" +
           (parameter.empty() ? "" : ", s") + "); }";
  };
  const std::vector<std::optional<double>> args = {std::nullopt, std::nullopt, std::nullopt,
                                                   4096.0};
  const StaticCounts local = count(source("", "double h[64] = {};"), "f", args);
  const StaticCounts handed = count(source(", double* h", ""), "f", args);
  EXPECT_GT(local.counters.dram_bytes, 0);
  EXPECT_LT(local.counters.dram_bytes + 256, handed.counters.dram_bytes);
  // A variable-length array is as large as the problem: its bytes count.
  const StaticCounts vla = count(
      "void f(double* __restrict y, const double* x, long n) { double t[n]; for (long i = 0; i "
      "< n; ++i) t[i] = x[i] * 2; for (long i = 0; i < n; ++i) y[i] = t[n - 1 - i]; }",
      "f", {std::nullopt, std::nullopt, 4096.0});
  EXPECT_GE(vla.counters.dram_bytes, 3 * 8 * 4096);  // x, y and t
}

TEST_F(PredictCountsTest, AStandardContainersResizeIsNotTheProblemsSize) {
  // A table of at most 16 + k values built with resize: a sweep over a container the kernel
  // sized, not over n elements.
  const StaticCounts c = count(
      "#include <vector>\nvoid f(double* __restrict y, const double* x, long n, int k) { "
      "std::vector<double> t(x, x + k); t.resize(k + 16, 1.0); for (long i = 0; i < n; ++i) "
      "y[i] = x[i] * t[i & 15]; }",
      "f", {std::nullopt, std::nullopt, 1e6, std::nullopt}, 1e6);
  EXPECT_LT(c.counters.dram_bytes, 2.2 * 8 * 1e6);  // x and y; the table's bytes are small
}

TEST(PredictDriverTest, MembersTheDriverSetsResolveToTheirValues) {
  const std::string driver =
      "constexpr int kOrder = 4, kMaxOrder = 9;\nvoid setup() { order_ = kOrder;\n count_ = n_; }\n"
      "void call() override { solve(a_.data(), count_, order_, 3); }\n";
  const auto args = driver_arguments(driver, "solve", 1000);
  ASSERT_EQ(args.size(), 4u);
  EXPECT_FALSE(args[0].has_value());
  EXPECT_EQ(args[1], 1000.0);
  EXPECT_EQ(args[2], 4.0);
  EXPECT_EQ(args[3], 3.0);
}

MachineModel two_core_machine() {
  MachineModel m;
  m.host.threads = 2;
  m.bandwidth = {10e9, 16e9};
  m.fp64 = {50e9, 100e9};
  m.fp32 = {100e9, 200e9};
  m.caches.push_back({2, 256e3, 512e3, {100e9, 180e9}});
  return m;
}

Calibration unit_costs() {
  Calibration c;
  c.issue = 1e-9, c.chain = 4e-9, c.divide = 5e-9, c.special = 20e-9, c.memory = 1.0;
  return c;
}

TEST(PredictModelTest, TheLargestBoundPlusLibraryCalls) {
  StaticCounts counts;
  counts.instructions = 1e6;                                 // 1 ms
  counts.chain_steps = 5e5;                                  // 2 ms
  counts.special_calls = 1e4;                                // 0.2 ms
  counts.counters.dram_bytes = counts.executed_bytes = 1e7;  // DRAM at 10 GB/s: 1 ms
  const TimePrediction p = predict_time(counts, two_core_machine(), unit_costs(), false);
  EXPECT_EQ(p.bound, "chain");
  EXPECT_NEAR(p.seconds, 2.2e-3, 1e-9);
  EXPECT_EQ(p.memory_level, "DRAM");
  EXPECT_EQ(p.threads, 1);
  EXPECT_NEAR(p.floor_seconds, 1e7 / 16e9, 1e-12);  // bytes at the all-core bandwidth
}

TEST(PredictModelTest, ParallelCodeSharesTheCoreBoundTermsAndUsesAllCoreBandwidth) {
  StaticCounts counts;
  counts.instructions = 4e6;
  counts.counters.dram_bytes = counts.executed_bytes = 4e5;  // fits in L2 (2 x 512 kB)
  const TimePrediction p = predict_time(counts, two_core_machine(), unit_costs(), true);
  EXPECT_EQ(p.threads, 2);
  EXPECT_NEAR(p.terms.issue, 2e-3, 1e-12);
  EXPECT_EQ(p.memory_level, "L2");
  EXPECT_NEAR(p.terms.memory, 4e5 / 180e9, 1e-15);
}

TEST(PredictModelTest, FootprintNeverExceedsTheBytesMoved) {
  StaticCounts counts;
  counts.counters.dram_bytes = 1e12;  // an access the analysis could not bound
  counts.executed_bytes = 1e6;
  const TimePrediction p = predict_time(counts, two_core_machine(), unit_costs(), false);
  EXPECT_DOUBLE_EQ(p.footprint, 1e6);
}

TEST(PredictModelTest, OpenMpParallelPragmasAreParallelSimdAloneIsNot) {
  EXPECT_TRUE(runs_in_parallel("#pragma omp parallel for\nfor (;;) {}"));
  EXPECT_TRUE(runs_in_parallel("#  pragma omp for schedule(static)"));
  EXPECT_FALSE(runs_in_parallel("#pragma omp simd reduction(+ : s)"));
  EXPECT_FALSE(runs_in_parallel("// no pragmas"));
}

TEST(PredictLlmTest, ReadsTheAnswerLineInAnyUnit) {
  EXPECT_DOUBLE_EQ(*parse_time_answer("... so about\nAnswer: 12.5 ms"), 12.5e-3);
  EXPECT_DOUBLE_EQ(*parse_time_answer("**Answer:** 3 s"), 3.0);
  EXPECT_DOUBLE_EQ(*parse_time_answer("Answer: 250 us"), 250e-6);
  EXPECT_DOUBLE_EQ(*parse_time_answer("Answer: 40"), 40e-3);
  EXPECT_DOUBLE_EQ(*parse_time_answer("answer: 1e3 microseconds."), 1e-3);
}

TEST(PredictLlmTest, RefusesAnswersWithoutAPositiveTime) {
  EXPECT_FALSE(parse_time_answer("It depends.").ok());
  EXPECT_FALSE(parse_time_answer("Answer: fast").ok());
  EXPECT_FALSE(parse_time_answer("Answer: -3 ms").ok());
  EXPECT_FALSE(parse_time_answer("Answer: 3 fortnights").ok());
  EXPECT_FALSE(parse_time_answer("Answer: nan ms").ok());
}

}  // namespace
}  // namespace kopt
