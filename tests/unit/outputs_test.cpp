#include "tools/eval/outputs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "benchmarks/common/harness.h"
#include "util/files.h"

namespace kopt {

namespace {

OutputRecord doubles(std::vector<double> values, const std::string& name = "y") {
  OutputArray array;
  array.name = name;
  array.dtype = 2;
  array.count = values.size();
  array.bytes.resize(values.size() * 8);
  std::memcpy(array.bytes.data(), values.data(), array.bytes.size());
  return {0, {array}};
}

double poison_f64() {
  const uint64_t bits = kopt_bench::kPoisonF64;
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}

}  // namespace

TEST(OutputsTest, WithinToleranceIsEqual) {
  Comparison c = compare(doubles({1.0, 2.0}), doubles({1.0 + 1e-13, 2.0}), 1e-12, 0);
  EXPECT_TRUE(c.ok);
}

TEST(OutputsTest, MatchingOutputsReportTheirLargestErrors) {
  // The fast path (every element within the tolerance) still reports the largest errors.
  Comparison c =
      compare(doubles({1.0 + 2e-13, 1e-15, -4.0}), doubles({1.0, 0.0, -4.0}), 1e-12, 1e-14);
  EXPECT_TRUE(c.ok);
  EXPECT_NEAR(c.max_abs_error, 2e-13, 1e-15);
  EXPECT_NEAR(c.max_rel_error, 2e-13, 1e-15);
  EXPECT_EQ(c.mismatches, 0u);
  // The worst element's share of its tolerance: 2e-13 against 1e-14 + 1e-12 |1|.
  ASSERT_EQ(c.outputs.size(), 1u);
  EXPECT_NEAR(c.outputs[0].tolerance_used, 0.198, 0.01);
}

TEST(OutputsTest, AnInfinityMatchesOnlyItself) {
  const double inf = std::numeric_limits<double>::infinity();
  // An overflow the original has too: inf - inf is NaN, yet the results are the same.
  EXPECT_TRUE(compare(doubles({inf, -inf, 1.0}), doubles({inf, -inf, 1.0}), 1e-12, 0).ok);
  // Either path: the slow one (another element is out of tolerance) counts one mismatch.
  const Comparison slow = compare(doubles({inf, 2.0}), doubles({inf, 1.0}), 1e-12, 0);
  EXPECT_FALSE(slow.ok);
  EXPECT_EQ(slow.mismatches, 1u);
  // Against an infinite reference the relative tolerance is infinite: it must not admit anything.
  EXPECT_FALSE(compare(doubles({-inf}), doubles({inf}), 1e-12, 0).ok);
  EXPECT_FALSE(compare(doubles({5.0}), doubles({inf}), 1e-12, 0).ok);
  EXPECT_FALSE(compare(doubles({1.0, 5.0}), doubles({2.0, -inf}), 1e-12, 0).ok);
  EXPECT_FALSE(compare(doubles({inf}), doubles({1e308}), 1e-12, 0).ok);
}

TEST(OutputsTest, NoToleranceTellsNegativeZeroFromZero) {
  // A copy must keep the sign of zero; with any tolerance, the two zeros are the same value.
  EXPECT_FALSE(compare(doubles({1.0, 0.0}), doubles({1.0, -0.0}), 0, 0).ok);
  const Comparison sign = compare(doubles({-0.0}), doubles({0.0}), 0, 0);
  EXPECT_FALSE(sign.ok);
  EXPECT_EQ(sign.category, "wrong") << sign.reason;
  EXPECT_TRUE(compare(doubles({-0.0, 2.0}), doubles({-0.0, 2.0}), 0, 0).ok);
  EXPECT_TRUE(compare(doubles({0.0}), doubles({-0.0}), 1e-12, 0).ok);
}

TEST(OutputsTest, AHugeErrorAgainstATinyToleranceIsAFiniteShare) {
  Comparison c = compare(doubles({1e300}), doubles({1e-300}), 1e-12, 1e-300);
  EXPECT_FALSE(c.ok);
  ASSERT_EQ(c.outputs.size(), 1u);
  EXPECT_TRUE(std::isfinite(c.outputs[0].tolerance_used)) << "JSON would hold null";
  EXPECT_GT(c.outputs[0].tolerance_used, 1e200);
}

TEST(OutputsTest, OneBadElementAmongManyIsFoundAndCounted) {
  std::vector<double> want(100000, 1.0), got = want;
  got[77777] = 1.5;
  Comparison c = compare(doubles(got), doubles(want), 1e-12, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_NE(c.reason.find("index 77777"), std::string::npos) << c.reason;
}

TEST(OutputsTest, SmallRelativeErrorIsReportedAsPrecision) {
  Comparison c = compare(doubles({1.0000001, 2.0}), doubles({1.0, 2.0}), 1e-12, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.category, "precision");
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_NE(c.reason.find("index 0"), std::string::npos);
}

TEST(OutputsTest, LargeErrorIsWrong) {
  Comparison c = compare(doubles({3.0}), doubles({1.0}), 1e-6, 1e-9);
  EXPECT_EQ(c.category, "wrong");
}

TEST(OutputsTest, NanAlwaysFailsEvenWhenTheReferenceIsNan) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(compare(doubles({-nan}), doubles({1.0}), 1, 1).category, "nan");
  EXPECT_FALSE(compare(doubles({nan}), doubles({nan}), 1, 1).ok);
}

TEST(OutputsTest, PoisonIsReportedAsNeverWritten) {
  Comparison c = compare(doubles({1.0, poison_f64()}), doubles({1.0, 2.0}), 1e-6, 0);
  EXPECT_EQ(c.category, "unwritten");
  EXPECT_NE(c.reason.find("never written"), std::string::npos);
}

TEST(OutputsTest, PoisonOnBothSidesStillFails) {
  // A kernel that reads its poisoned output computes with the poison's payload, which arithmetic
  // carries into its results: the original's "unwritten" elements may be a wrong role (inout
  // registered as output), and matching them would hide it.
  EXPECT_FALSE(compare(doubles({1.0, poison_f64()}), doubles({1.0, poison_f64()}), 1e-6, 0).ok);
}

TEST(OutputsTest, AnOutputWhollyBelowAtolIsComparedAtItsOwnScale) {
  // A product of subnormals: every value far below atol. Zeros (a flush-to-zero kernel) or any
  // other small answer would pass an unscaled atol of 1e-12.
  EXPECT_FALSE(compare(doubles({0.0, 0.0}), doubles({1e-301, -3e-301}), 1e-12, 1e-12).ok);
  EXPECT_FALSE(compare(doubles({2e-17}), doubles({1e-301}), 1e-12, 1e-12).ok);
  EXPECT_TRUE(compare(doubles({1e-301 * (1 + 1e-14)}), doubles({1e-301}), 1e-12, 1e-12).ok);
  // With any value at or above atol, atol is the manifest's: small values from cancellation
  // beside larger ones keep their absolute tolerance.
  EXPECT_TRUE(compare(doubles({5e-13, 1e-5}), doubles({0.0, 1e-5}), 1e-12, 1e-12).ok);
}

TEST(OutputsTest, AWrongInfinityIsWrongNotPrecision) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(compare(doubles({5.0}), doubles({inf}), 1e-12, 0).category, "wrong");
}

TEST(OutputsTest, ShortOutputIsAShapeError) {
  Comparison c = compare(doubles({1.0}), doubles({1.0, 2.0}), 1e-6, 0);
  EXPECT_EQ(c.category, "shape");
  EXPECT_NE(c.reason.find("has 1 elements, expected 2"), std::string::npos);
}

TEST(OutputsTest, IntegersCompareExactly) {
  OutputRecord a = doubles({1.0}), b = doubles({1.0});
  a.arrays[0].dtype = b.arrays[0].dtype = 4;  // The same 8 bytes read as int64.
  EXPECT_TRUE(compare(a, b, 0, 0).ok);
  a.arrays[0].bytes[0] ^= 1;
  EXPECT_EQ(compare(a, b, 1, 1).category, "wrong");
}

TEST(OutputsTest, ReadsWhatTheHarnessWritesAndRejectsTruncation) {
  TempDir dir("outputs-test-");
  double values[2] = {1.5, -2.5};
  {  // The benchmark harness itself writes the file.
    kopt_bench::OutputFile out((dir.path() / "out.bin").string());
    out.record(42, {{"y", kopt_bench::DType::f64, values, 2, sizeof(double)}});
  }
  const std::string file = read_file(dir.path() / "out.bin").value();
  auto records = read_outputs(dir.path() / "out.bin");
  ASSERT_TRUE(records.ok()) << records.error().message;
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0].label, 42u);
  EXPECT_TRUE(identical((*records)[0], doubles({1.5, -2.5})));

  ASSERT_TRUE(write_file(dir.path() / "short.bin", file.substr(0, file.size() - 3)));
  auto truncated = read_outputs(dir.path() / "short.bin");
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos);
  EXPECT_FALSE(read_outputs(dir.path() / "missing.bin").ok());
}

}  // namespace kopt
