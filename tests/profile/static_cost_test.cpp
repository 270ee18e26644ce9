// The static roofline's cost model on IR that clang and opt produced for three CPU kernels
// (tests/fixtures/roofline/), and on the PTX of the naive CUDA matmul.
#include <gtest/gtest.h>

#include <filesystem>

#include "tools/roofline/ir_cost_model.h"
#include "tools/roofline/static_cpu.h"
#include "tools/roofline/static_ptx.h"
#include "util/files.h"

namespace kopt {
namespace {

std::string cost_fixture(const std::string& name) {
  auto text = read_file(std::filesystem::path(KOPT_TEST_FIXTURES) / "roofline" / name);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

StaticCounts cost(const std::string& bench, const std::string& function, TripAssumptions assume) {
  return cost_module(parse_llvm_ir(cost_fixture(bench + ".ll")),
                     parse_scev_report(cost_fixture(bench + ".scev.txt")), {function}, assume);
}

TEST(StaticCostTest, MatmulCountsTwoFlopsPerMultiplyAddAndCompulsoryBytes) {
  TripAssumptions assume;
  assume.size = 100;
  const StaticCounts c = cost("matmul", "matmul", assume);
  EXPECT_DOUBLE_EQ(c.counters.fp64_flops, 2e6);         // 2 n^3
  EXPECT_DOUBLE_EQ(c.counters.dram_bytes, 24.0 * 1e4);  // a, b read and c written once: 24 n^2
  EXPECT_DOUBLE_EQ(c.executed_bytes, 16e6 + 8e4);       // every load executed: 16 n^3 + 8 n^2
  EXPECT_EQ(c.loops, 3);
  EXPECT_EQ(c.unknown_trip_loops, 0);
}

TEST(StaticCostTest, StencilNeighboursShareOneFootprint) {
  TripAssumptions assume;
  assume.size = 1000;
  assume.arguments = {std::nullopt, std::nullopt, 1000.0, std::nullopt, 8.0};  // radius 8
  const StaticCounts c = cost("stencil1d", "stencil1d", assume);
  EXPECT_DOUBLE_EQ(c.counters.fp64_flops, 2.0 * 17 * 1000);
  // in[] about 8 n (+ the halo), out[] 8 n, w[] 17 doubles.
  EXPECT_NEAR(c.counters.dram_bytes, 16 * 1000 + 8 * 16 + 8 * 17, 16);
}

TEST(StaticCostTest, TriangularLoopTakesTheMeanTripCount) {
  TripAssumptions assume;
  assume.size = 1000;
  const StaticCounts c = cost("count_smaller", "count_smaller", assume);
  EXPECT_EQ(c.counters.fp64_flops, 0);
  EXPECT_GT(c.counters.int_ops, 1000.0 * 999 / 2);  // at least one compare per pair
  EXPECT_LT(c.counters.dram_bytes, 8 * 1000 * 2);
}

TEST(StaticCostTest, MatchesMangledNames) {
  EXPECT_TRUE(names_function("_Z6matmulPKdS0_Pdl", "matmul"));
  EXPECT_TRUE(names_function("matmul", "matmul"));
  EXPECT_FALSE(names_function("_Z7matmul2PKd", "matmul"));
}

TEST(StaticCostTest, DriverArgumentsResolveConstantsAndTheSize) {
  const std::string driver =
      "constexpr int kRadius = 8;\nvoid call() override { stencil1d(in_.data(), out_.data(), n_, "
      "w_.data(), "
      "kRadius); }\n";
  const auto args = driver_arguments(driver, "stencil1d", 4096);
  ASSERT_EQ(args.size(), 5u);
  EXPECT_FALSE(args[0].has_value());
  EXPECT_EQ(args[2], 4096.0);
  EXPECT_EQ(args[4], 8.0);
}

TEST(StaticCostTest, PtxCountsFmaAsTwoAndReusesTheNaiveMatmulsRows) {
  const StaticCounts c = cost_ptx(cost_fixture("matmul_cuda.ptx"), 16);
  EXPECT_GT(c.counters.fp32_flops, 0);
  EXPECT_EQ(c.counters.fp64_flops, 0);
  // The naive kernel executes two float loads per multiply-add: 2 flops per 8 bytes...
  EXPECT_NEAR(c.counters.fp32_flops / c.executed_bytes, 0.25, 0.05);
  // ...but a row of a and a column of b are read by many threads: DRAM moves far less.
  EXPECT_LT(c.counters.dram_bytes, c.executed_bytes / 10);
}

}  // namespace
}  // namespace kopt
