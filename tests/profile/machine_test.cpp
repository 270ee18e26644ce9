// The machine model's pieces that do not measure anything: sysfs parsing, the cached
// document, and `kopt machine --hardware` and `kopt roofline --counters-csv` end to end.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>

#include "../support/schemas.h"
#include "../support/text.h"
#include "tools/machine/host.h"
#include "tools/machine/machine.h"

namespace kopt {
namespace {

TEST(MachineTest, ParsesSysfsCacheSizes) {
  EXPECT_EQ(parse_cache_size("48K"), 48u << 10);
  EXPECT_EQ(parse_cache_size("2M"), 2u << 20);
  EXPECT_EQ(parse_cache_size("512"), 512u);
  EXPECT_EQ(parse_cache_size(""), 0u);
}

TEST(MachineTest, ReadsThisHost) {
  const HostInfo host = read_host_info();
  EXPECT_GT(host.threads, 0);
  EXPECT_GT(host.cores, 0);
  EXPECT_FALSE(host.cpu_model.empty());
  EXPECT_GE(host.vector_bits, 128);
}

TEST(MachineTest, DescribesTheHostInOneLineForThePrompts) {
  HostInfo host;
  host.cpu_model = "Some CPU 9000";
  host.cores = 4;
  host.threads = 8;
  host.vector_bits = 512;
  host.fma = true;
  host.isa = {"avx2", "avx512f"};
  host.caches = {{1, "Data", 48u << 10, 2, 4},
                 {1, "Instruction", 32u << 10, 2, 4},
                 {2, "Unified", 2u << 20, 2, 4},
                 {3, "Unified", 32u << 20, 8, 1}};
  EXPECT_EQ(host_text(host),
            "Host: Some CPU 9000, 4 core(s) (8 hardware thread(s)); SIMD up to 512 bits (avx2 "
            "avx512f), FMA; caches L1d 48 KiB per 2 thread(s), L2 2 MiB per 2 thread(s), L3 32 "
            "MiB shared.");
  EXPECT_NE(host_text(read_host_info()).find(read_host_info().cpu_model), std::string::npos);
}

TEST(MachineTest, TheCachedDocumentRoundTrips) {
  MachineModel m;
  m.host = read_host_info();
  m.bandwidth = {10e9, 15e9};
  m.fp64 = {50e9, 100e9};
  m.fp32 = {100e9, 200e9};
  m.int32 = {60e9, 120e9};
  m.compiler = "g++ 12";
  EXPECT_TRUE(test::meets_its_schema(dump_json(to_json(m))));
  auto back = machine_from_json(to_json(m));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->peaks().fp64, 100e9);
  EXPECT_EQ(back->peaks().dram_bandwidth, 15e9);
  EXPECT_EQ(back->host.cpu_model, m.host.cpu_model);
  EXPECT_FALSE(machine_from_json(Json{{"format", "kopt-machine/0"}}).ok());
}

TEST(MachineTest, CliShowsTheHardwareTableWithSources) {
  const std::string out = test::shell(std::string(KOPT_BINARY) + " machine --hardware h100").output;
  EXPECT_NE(out.find("132 SMs"), std::string::npos) << out;
  EXPECT_NE(out.find("whitepaper"), std::string::npos) << out;
}

TEST(MachineTest, CliReproducesTheRtx3080Labels) {
  const std::string out =
      test::shell(std::string(KOPT_BINARY) + " roofline --counters-csv " + KOPT_TEST_FIXTURES +
                  "/rtx3080-profiling.csv --hardware rtx3080")
          .output;
  EXPECT_NE(out.find("agrees with the rule on the file's intensity columns: 3436 of 3436"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace kopt
