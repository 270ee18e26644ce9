// The roofline gate: figures from the issue (388 GFLOP/s measured where the machine model says
// 228 GFLOP/s) and the cases where no memory roof may apply.
#include <gtest/gtest.h>

#include "tools/eval/plausibility.h"

namespace kopt {

namespace {

Roof roof(double gflops, double gbytes, double cache_mib) {
  Roof r;
  r.machine = "test machine";
  r.flops = gflops * 1e9;
  r.bandwidth = gbytes * 1e9;
  r.cache_bytes = cache_mib * (1 << 20);
  return r;
}

MachineModel model(double one_core_gflops, double all_cores_gflops, double load, int threads) {
  MachineModel m;
  m.host.threads = threads;
  m.host.caches = {{3, "Unified", 16 << 20, threads, 2}};
  m.fp64 = {one_core_gflops * 1e9, all_cores_gflops * 1e9};
  m.fp32 = m.int32 = m.fp64;
  m.bandwidth = {10e9, 20e9};
  m.load_average = load;
  return m;
}

}  // namespace

TEST(PlausibilityTest, RateFarPastTheComputeRoofIsRejectedWithTheFigures) {
  // 388 GFLOP of work in one second against a 228 GFLOP/s roof: 1.70x past it.
  const Plausibility p = judge_plausibility(388e9, 1e6, 1e6, 1.0, roof(228, 50, 32));
  EXPECT_TRUE(p.judged);
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.limit, "compute");
  EXPECT_NE(p.reason.find("faster than the hardware allows"), std::string::npos) << p.reason;
  EXPECT_NE(p.reason.find("388 GFLOP/s"), std::string::npos) << p.reason;
  EXPECT_NE(p.reason.find("228 GFLOP/s"), std::string::npos) << p.reason;
}

TEST(PlausibilityTest, RateWithinTheMarginIsAccepted) {
  const Plausibility p = judge_plausibility(300e9, 1e6, 1e6, 1.0, roof(228, 50, 32));
  EXPECT_TRUE(p.judged);
  EXPECT_TRUE(p.ok) << p.reason;
  EXPECT_NEAR(p.bound_seconds, 300.0 / 228.0, 1e-9);
}

TEST(PlausibilityTest, StreamingPastTheBandwidthIsRejected) {
  // 1 GB moved in 10 ms is 100 GB/s against a 20 GB/s roof.
  const Plausibility p = judge_plausibility(0, 1e9, 1e9, 0.01, roof(228, 20, 32));
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.limit, "memory");
}

TEST(PlausibilityTest, CacheResidentFootprintIsNotHeldToDramBandwidth) {
  // Ten sweeps over a 24 MB footprint count 160 MB of traffic; a 32 MiB cache serves them.
  const Plausibility p = judge_plausibility(0, 160e6, 24e6, 1e-3, roof(228, 20, 32));
  EXPECT_FALSE(p.judged);
  EXPECT_TRUE(p.ok);
  EXPECT_EQ(p.limit, "");
}

TEST(PlausibilityTest, OnlyThePartOfTheFootprintNoCacheHoldsIsChargedToMemory) {
  // 64 MiB streamed once with a 32 MiB cache: the inputs were just filled, so half of them may
  // be cached when the call starts; 32 MiB must come over a 10 GB/s bus: 3.36 ms at least.
  const double mib = 1 << 20;
  const Plausibility warm = judge_plausibility(0, 64 * mib, 64 * mib, 3.0e-3, roof(228, 10, 32));
  EXPECT_TRUE(warm.judged);
  EXPECT_NEAR(warm.bound_seconds, 32 * mib / 10e9, 1e-12);
  EXPECT_TRUE(warm.ok) << warm.reason;  // 1.12x past the bound: within the margin.
  // Two passes counted by the manifest, fused by a faster version: charged once.
  const Plausibility fused = judge_plausibility(0, 128 * mib, 64 * mib, 3.0e-3, roof(228, 10, 32));
  EXPECT_NEAR(fused.bound_seconds, warm.bound_seconds, 1e-12);
  const Plausibility cheat = judge_plausibility(0, 64 * mib, 64 * mib, 1.0e-3, roof(228, 10, 32));
  EXPECT_FALSE(cheat.ok) << cheat.reason;
}

TEST(PlausibilityTest, UntrustedRoofGivesNoVerdict) {
  Roof r = roof(1, 1, 0);
  r.trusted = false;
  r.caveat = "measured under load";
  const Plausibility p = judge_plausibility(1e12, 1e12, 1e12, 1.0, r);
  EXPECT_FALSE(p.judged);
  EXPECT_TRUE(p.ok);
  EXPECT_NE(p.reason.find("measured under load"), std::string::npos);
}

TEST(PlausibilityTest, HostRoofTakesTheLargerOfOneCoreAndAllCores) {
  const Roof r = host_roof(model(50, 40, 0, 2));
  EXPECT_DOUBLE_EQ(r.flops, 50e9);
  EXPECT_DOUBLE_EQ(r.bandwidth, 20e9);
  EXPECT_DOUBLE_EQ(r.cache_bytes, 32.0 * (1 << 20));
}

TEST(MachineTrustTest, ModelMeasuredUnderLoadIsNotTrusted) {
  EXPECT_TRUE(model(50, 100, 0.5, 2).trusted());
  const MachineModel loaded = model(50, 100, 6.0, 2);
  EXPECT_FALSE(loaded.trusted());
  EXPECT_NE(loaded.caveat().find("under load"), std::string::npos) << loaded.caveat();
  EXPECT_FALSE(host_roof(loaded).trusted);
}

TEST(MachineTrustTest, AllCoresSlowerThanOneCoreIsImplausible) {
  const MachineModel odd = model(100, 50, 0, 2);
  EXPECT_FALSE(odd.trusted());
  EXPECT_NE(odd.caveat().find("implausible"), std::string::npos) << odd.caveat();
}

TEST(MachineTrustTest, AModelThatDoesNotSayItsLoadIsNotTrusted) {
  Json doc = to_json(model(50, 100, 0.1, 2));
  doc.erase("load_average");
  auto back = machine_from_json(doc);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->trusted());
  EXPECT_NE(back->caveat().find("does not say"), std::string::npos) << back->caveat();
}

TEST(MachineTrustTest, LoadAverageSurvivesTheDocument) {
  MachineModel m = model(50, 100, 3.25, 8);
  auto back = machine_from_json(to_json(m));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_DOUBLE_EQ(back->load_average, 3.25);
}

}  // namespace kopt
