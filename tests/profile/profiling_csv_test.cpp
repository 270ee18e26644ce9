// The measured method on real counters: the paper's RTX 3080 data set (tests/fixtures/
// rtx3080-profiling.csv, MIT, Scientific Computing Lab). The data has no label column: the
// label is the paper's rule on its intensities with its balance points. kopt must get the same
// balance points from the hardware table's peaks, the same intensities from the raw rates, and
// so the same label on every one of the 3,436 rows.
#include <gtest/gtest.h>

#include <cmath>

#include "tools/machine/hardware.h"
#include "tools/roofline/counters.h"
#include "tools/roofline/profiling_csv.h"
#include "util/files.h"

namespace kopt {
namespace {

constexpr Intensities kPaperBalance{32.97, 0.515, 16.49};

const std::vector<ProfiledLaunch>& launches() {
  static const auto rows =
      read_profiling_csv(std::string(KOPT_TEST_FIXTURES) + "/rtx3080-profiling.csv");
  EXPECT_TRUE(rows.ok()) << (rows.ok() ? "" : rows.error().message);
  static const std::vector<ProfiledLaunch> empty;
  return rows.ok() ? *rows : empty;
}

Peaks rtx3080() {
  auto spec = find_hardware("rtx3080");
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
  return spec.ok() ? spec->peaks : Peaks{};
}

bool close(double a, double b, double rel) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)) + 1e-300;
}

TEST(ProfilingCsvTest, ReadsEveryRow) {
  EXPECT_EQ(launches().size(), 3436u);
}

TEST(ProfilingCsvTest, ARowShorterThanTheHeaderIsAnErrorNamingItsLine) {
  // Found by the fuzzer: the name columns come last and were read past the row's end.
  TempDir dir("profiling-csv-");
  const auto file = dir.path() / "short.csv";
  write_file(file,
             "\"traffic\",\"spAI\",\"dpAI\",\"intAI\",\"spPerf\",\"dpPerf\",\"intPerf\","
             "\"xtime\",\"targetName\",\"Kernel Name\"\n"
             "1,2,3,4,5,6,7,8\n");
  const auto rows = read_profiling_csv(file);
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.error().message.find("short.csv:2: the row has fewer fields"), std::string::npos)
      << rows.error().message;
}

TEST(ProfilingCsvTest, BalancePointsFromTheTablePeaksAreThePapers) {
  const Intensities b = balance_points(rtx3080());
  EXPECT_NEAR(b.fp32, kPaperBalance.fp32, 0.005);
  EXPECT_NEAR(b.fp64, kPaperBalance.fp64, 0.0005);
  EXPECT_NEAR(b.int_ops, kPaperBalance.int_ops, 0.005);
}

TEST(ProfilingCsvTest, IntensitiesFromRawRatesMatchTheGivenColumns) {
  for (const auto& row : launches()) {
    const Intensities ai = intensities(row.counters);
    ASSERT_TRUE(close(ai.fp32, row.given.fp32, 1e-9)) << row.counters.kernel;
    ASSERT_TRUE(close(ai.fp64, row.given.fp64, 1e-9)) << row.counters.kernel;
    ASSERT_TRUE(close(ai.int_ops, row.given.int_ops, 1e-9)) << row.counters.kernel;
  }
}

TEST(ProfilingCsvTest, ReproducesEveryPaperLabel) {
  const Peaks peaks = rtx3080();
  int bandwidth_bound = 0;
  for (const auto& row : launches()) {
    const BoundClass label = paper_class(row.given, kPaperBalance);
    const RooflinePoint point = place(row.counters, peaks);
    ASSERT_EQ(point.by_intensity, label) << row.program << " " << row.counters.kernel;
    if (label == BoundClass::bandwidth) ++bandwidth_bound;
  }
  EXPECT_EQ(bandwidth_bound, 2409);  // 70% of the launches, as the data's README says.
}

TEST(ProfilingCsvTest, SlowBandwidthBoundLaunchesAreLatencyBound) {
  const Peaks peaks = rtx3080();
  int latency = 0, bandwidth = 0;
  for (const auto& row : launches()) {
    const RooflinePoint point = place(row.counters, peaks);
    if (point.cls == BoundClass::latency) ++latency;
    if (point.cls == BoundClass::bandwidth) ++bandwidth;
    if (point.cls == BoundClass::latency) {
      ASSERT_LT(point.bandwidth_fraction, 0.1);
    }
  }
  EXPECT_EQ(latency + bandwidth, 2409);
  EXPECT_GT(latency, 500);
}

TEST(ProfilingCsvTest, SplitsQuotedFields) {
  const auto fields = split_csv_record(R"csv("f(int, float)",1.5,"say ""hi""",)csv");
  EXPECT_EQ(fields[2], "say \"hi\"");
  EXPECT_EQ(fields[3], "");
}

}  // namespace
}  // namespace kopt
