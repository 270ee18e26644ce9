// The report's roofline chart: the roofs it draws and the points it flags.
#include <gtest/gtest.h>

#include "agent/report/charts.h"

namespace kopt {
namespace {

// A run of a kernel doing 1 GFLOP over 1 GB per call (intensity 1), with candidates at `rates`
// GFLOP/s (ids 0001, 0002, ...).
RunView run_with(const std::vector<double>& rates) {
  RunView v;
  v.reference.flops = 1e9;
  v.reference.bytes = 1e9;
  v.reference.original_gflops = 5;
  for (size_t i = 0; i < rates.size(); ++i) {
    CandidateView c;
    c.id = "000" + std::to_string(i + 1);
    c.evaluated = true;
    c.verdict.status = "faster";
    c.verdict.speedup = rates[i] / 5;
    c.verdict.gflops = rates[i];
    v.candidates.push_back(c);
  }
  return v;
}

std::vector<std::string> labels(const Json& chart) {
  std::vector<std::string> out;
  for (const Json& d : chart["datasets"]) out.push_back(d.value("label", ""));
  return out;
}

// The point's flag `which`: above_roof (above every roof) or above_dram (above DRAM's only).
bool flagged(const Json& chart, const std::string& id, const char* which = "above_roof") {
  for (const Json& d : chart["datasets"])
    for (const Json& p : d["data"])
      if (p.value("id", "") == id) return p.value(which, false);
  ADD_FAILURE() << "no point " << id;
  return false;
}

TEST(ReportChartsTest, CacheLevelsAddRoofsAboveTheDramOneAndOnlyAPointAboveAllIsFlagged) {
  // DRAM 20 GB/s, L2 100 GB/s, L1 400 GB/s; compute 1000 GFLOP/s. At intensity 1, a kernel
  // may reach 20 GFLOP/s from DRAM, 100 from L2, 400 from L1.
  Roofs roofs{1000, 20, "test", {{"L1", 400}, {"L2", 100}}};
  const Json chart = roofline_chart(run_with({15, 60, 300, 900}), roofs);
  ASSERT_FALSE(chart.is_null());
  const auto names = labels(chart);
  auto has = [&](const std::string& prefix) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return n.rfind(prefix, 0) == 0; });
  };
  EXPECT_TRUE(has("L1 roof: 400 GB/s")) << chart.dump();
  EXPECT_TRUE(has("L2 roof: 100 GB/s")) << chart.dump();
  EXPECT_TRUE(has("roof: 1e+03 GFLOP/s, 20 GB/s")) << chart.dump();
  EXPECT_FALSE(flagged(chart, "0001")) << "under the DRAM roof";
  EXPECT_FALSE(flagged(chart, "0002")) << "above DRAM, under L2: data that stays in L2";
  EXPECT_FALSE(flagged(chart, "0003")) << "under the L1 roof";
  EXPECT_TRUE(flagged(chart, "0004")) << "above every roof: the work or the roofs are wrong";
  EXPECT_FALSE(flagged(chart, "0001", "above_dram"));
  EXPECT_TRUE(flagged(chart, "0002", "above_dram")) << "its data must come from a cache";
  EXPECT_TRUE(flagged(chart, "0003", "above_dram"));
  EXPECT_FALSE(flagged(chart, "0004", "above_dram")) << "flagged once, as above every roof";
}

TEST(ReportChartsTest, WithoutCacheLevelsAPointAboveTheDramRoofIsFlagged) {
  const Json chart = roofline_chart(run_with({15, 60}), Roofs{1000, 20, "test"});
  ASSERT_FALSE(chart.is_null());
  for (const auto& name : labels(chart)) EXPECT_EQ(name.find("L1"), std::string::npos) << name;
  EXPECT_FALSE(flagged(chart, "0001"));
  EXPECT_TRUE(flagged(chart, "0002"));
  EXPECT_FALSE(flagged(chart, "0002", "above_dram")) << "DRAM's is the highest roof";
}

// count_smaller's shape: 1 GB per call and no floating-point work; the original at 100 ms
// (10 GB/s), candidates at `rates` GB/s.
RunView integer_run(const std::vector<double>& rates) {
  RunView v;
  v.reference.bytes = 1e9;
  v.reference.original_ms = 100;
  for (size_t i = 0; i < rates.size(); ++i) {
    CandidateView c;
    c.id = "000" + std::to_string(i + 1);
    c.verdict.status = "faster";
    c.verdict.speedup = rates[i] / 10;
    c.verdict.gbytes_per_s = rates[i];
    v.candidates.push_back(c);
  }
  return v;
}

TEST(ReportChartsTest, AnIntegerOnlyBenchmarkGetsABandwidthChartThatSaysWhichRoofsItDraws) {
  Roofs roofs{1000, 20, "test", {{"L1", 400}}, 2000};
  const Json chart = roofline_chart(integer_run({15, 900}), roofs);
  ASSERT_FALSE(chart.is_null()) << "no flops must not mean no chart";
  const auto names = labels(chart);
  EXPECT_NE(std::find(names.begin(), names.end(), "DRAM roof: 20 GB/s"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "L1 roof: 400 GB/s"), names.end());
  EXPECT_FALSE(flagged(chart, "original"));
  EXPECT_FALSE(flagged(chart, "0001"));
  EXPECT_TRUE(flagged(chart, "0002")) << "900 GB/s is above every memory roof";
  const std::string note = chart.value("note", "");
  EXPECT_NE(note.find("bandwidth-only"), std::string::npos) << note;
  EXPECT_NE(note.find("integer peak, 2e+03 GOP/s, is not drawn"), std::string::npos) << note;
}

TEST(ReportChartsTest, WithoutAnalyticBytesOrRoofsThereIsNoChart) {
  EXPECT_TRUE(roofline_chart(RunView{}, Roofs{1000, 20, "test"}).is_null());
  EXPECT_TRUE(roofline_chart(integer_run({15}), Roofs{}).is_null());
}

TEST(ReportChartsTest, WithNoCandidateTimedTheSamplesAreTheHumanVersionsAgainstTheOriginal) {
  RunView v;
  CandidateView failed;
  failed.id = "0001";
  failed.verdict.status = "build-failed";
  v.candidates.push_back(failed);
  EXPECT_TRUE(samples_chart(v).is_null()) << "nothing timed, nothing drawn";
  v.human.status = "faster";
  v.human_baseline_samples_ms = {10, 11, 12};
  v.human_samples_ms = {2, 2.5, 3};
  const Json chart = samples_chart(v);
  ASSERT_FALSE(chart.is_null());
  EXPECT_EQ(chart["ids"], Json::array({"original", "human"})) << chart.dump();
  double highest = 0;
  for (const Json& d : chart["datasets"])
    if (d.value("kind", "") == "samples")
      for (const Json& p : d["data"]) highest = std::max(highest, p.value("y", 0.0));
  EXPECT_EQ(highest, 12) << "every sample drawn";
}

TEST(ReportChartsTest, TheTrajectorysAxisHoldsEveryIntervalAndTheHumanLine) {
  RunView v = run_with({36.4});  // 7.28x over the original ...
  v.candidates[0].verdict.ci_low = 5.75;
  v.candidates[0].verdict.ci_high = 15.52;  // ... with a wide interval, as a noisy host gives.
  CandidateView failed;
  failed.id = "0002";
  failed.verdict.status = "incorrect";
  v.candidates.push_back(failed);
  v.human.speedup = 4.63;
  const Json chart = trajectory_chart(v);
  const double low = chart["y"].value("min", 0.0), high = chart["y"].value("max", 0.0);
  EXPECT_DOUBLE_EQ(high, 20) << "above 15.52, at a 1-2-5 value the ticks name";
  EXPECT_DOUBLE_EQ(low, 0.5) << "below the crosses at 1 / 1.5";
  for (const Json& d : chart["datasets"])
    for (const Json& p : d["data"]) EXPECT_GE(p.value("y", 0.0), low) << p.dump();
}

}  // namespace
}  // namespace kopt
