// profile_gpu and collect_gpu_counters end to end. Without a GPU they must fail as values with a
// category; with one (an H100 or H200) they profile a real CUDA benchmark. Fixture tests read
// files recorded on a GPU by scripts/record-cupti-fixtures.sh and skip until those exist.
#include "tools/profile/gpu_profile.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "gpu_test_support.h"
#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "util/paths.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

Benchmark cuda_benchmark() {
  Benchmark bench;
  bench.name = "synthetic";
  bench.language = Language::cuda;
  bench.time_size = 1024;
  return bench;
}

GpuProfileOptions with_library() {
  GpuProfileOptions options;
#if KOPT_HAVE_CUPTI_INJECT
  options.injection_library = KOPT_CUPTI_INJECT_LIBRARY;
#endif
  return options;
}

class GpuProfileSetupTest : public ::testing::Test {
 protected:
  LocalProcessRunner runner_;
  ExecutionContext ctx_ = default_context(runner_, false);
};

TEST_F(GpuProfileSetupTest, ACpuBenchmarkIsNotProfiledOnTheGpu) {
  Benchmark bench = cuda_benchmark();
  bench.language = Language::openmp;
  GpuProfile profile = profile_gpu(ctx_, bench, "/nonexistent", with_library());
  EXPECT_FALSE(profile.ok());
  EXPECT_EQ(profile.category, "setup");
  EXPECT_NE(profile.failure.find("CUDA benchmarks"), std::string::npos) << profile.failure;
}

TEST_F(GpuProfileSetupTest, AMissingInjectionLibraryIsASetupProblem) {
  GpuProfileOptions options;
  options.injection_library = "/nonexistent/libkopt_cupti_inject.so";
  GpuProfile profile = profile_gpu(ctx_, cuda_benchmark(), "/nonexistent", options);
  EXPECT_EQ(profile.category, "setup");
  EXPECT_NE(profile.failure.find("without CUPTI"), std::string::npos) << profile.failure;
}

TEST_F(GpuProfileSetupTest, NoGpuIsACategoryWithAClearReason) {
  const std::string reason = test::no_gpu_reason();
  if (reason.empty()) GTEST_SKIP() << "a GPU is present: the device tests profile it for real";
#if !KOPT_HAVE_CUPTI_INJECT
  GTEST_SKIP() << "the injection library was not built (no CUPTI)";
#endif
  GpuProfile profile = profile_gpu(ctx_, cuda_benchmark(), "/nonexistent", with_library());
  EXPECT_EQ(profile.category, "no-gpu");
  EXPECT_NE(profile.failure.find("no NVIDIA GPU"), std::string::npos) << profile.failure;
  Json record = to_json(profile);
  EXPECT_EQ(record["category"], "no-gpu");
  EXPECT_EQ(record["failure"], profile.failure);
  GpuCounters counters =
      collect_gpu_counters(ctx_, cuda_benchmark(), "/nonexistent", with_library());
  EXPECT_EQ(counters.category, "no-gpu");
  EXPECT_EQ(to_json(counters)["category"], "no-gpu");
}

// On a GPU machine: builds benchmarks/cuda/<name> and runs it under the injection library.
// With $KOPT_RECORD_CUPTI_FIXTURES set, the library's raw output is kept there for fixtures.
// CUPTI refusing for lack of privileges skips them after checking the recorded reason.
class GpuDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string reason = test::no_gpu_reason(); !reason.empty()) GTEST_SKIP() << reason;
#if !KOPT_HAVE_CUPTI_INJECT
    GTEST_SKIP() << "the injection library was not built (no CUPTI)";
#endif
    // $KOPT_GPU_TESTS_NO_SANDBOX=1 runs the benchmark as this user with its capabilities, for
    // machines that keep the GPU counters to administrators.
    const char* no_sandbox = std::getenv("KOPT_GPU_TESTS_NO_SANDBOX");
    ctx_ = default_context(runner_, probe_sandbox().ok() && !(no_sandbox && *no_sandbox == '1'));
  }

  fs::path build(const std::string& name, bool human = false) {
    auto bench = load_benchmark(kopt_home() / "benchmarks" / "cuda" / name);
    if (!bench) return {};
    bench_ = *bench;
    auto source = read_file(human ? bench_.human_path() : bench_.kernel_path());
    Builder builder(ctx_);
    BuildOutcome outcome = builder.build(bench_, source.value());
    EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
    return outcome.ok ? outcome.binary : fs::path();
  }

  GpuProfileOptions options(const std::string& name, const std::string& what) {
    GpuProfileOptions options = with_library();
    options.size = 1 << 24;
    if (const char* record = std::getenv("KOPT_RECORD_CUPTI_FIXTURES"); record && *record) {
      const fs::path folder = fs::path(record) / name;
      options.keep_raw = folder / what;
      EXPECT_TRUE(write_json_file(folder / "recorded.json", {{"benchmark", name},
                                                             {"size", options.size},
                                                             {"seed", options.seed},
                                                             {"warmup", options.warmup},
                                                             {"reps", options.reps}}));
      EXPECT_TRUE(write_file(folder / "kernel.cu", read_file(bench_.kernel_path()).value()));
    }
    return options;
  }

  LocalProcessRunner runner_;
  ExecutionContext ctx_;
  Benchmark bench_;
};

TEST_F(GpuDeviceTest, PcSamplingRanksTheTriadLoopFirst) {
  const fs::path binary = build("triad_cuda");
  if (binary.empty()) GTEST_SKIP() << "benchmarks/cuda/triad is not available";
  GpuProfile profile = profile_gpu(ctx_, bench_, binary, options("triad", "pcsampling"));
  if (profile.category == "insufficient-privileges") {
    EXPECT_NE(profile.failure.find("NVreg_RestrictProfilingToAdminUsers"), std::string::npos);
    GTEST_SKIP() << "CUPTI refused (the recorded reason is checked): " << profile.failure;
  }
  ASSERT_TRUE(profile.ok()) << profile.category << ": " << profile.failure;
  std::cout << profile.summary;
  const GpuAttribution& a = profile.attribution;
  ASSERT_GT(a.samples, 0u);
  EXPECT_LT(a.unattributed, a.samples / 10) << profile.summary;
  ASSERT_FALSE(a.lines.empty());
  EXPECT_EQ(a.lines[0].file, "kernel.cu") << profile.summary;
  EXPECT_NE(a.lines[0].code.find("b[i] + s * c[i]"), std::string::npos) << profile.summary;
  EXPECT_FALSE(a.lines[0].stalls.empty());
  EXPECT_FALSE(profile.samples.stall_reasons.empty());
}

// The triad's work: 2 flops and 12 bytes per element. The human version streams (float4,
// coalesced), so its DRAM traffic is those 12 bytes; the original's is a multiple of them, since
// each thread walks a chunk of its own and a warp's loads are uncoalesced (measured on an H100:
// 12.4 times as many bytes).
TEST_F(GpuDeviceTest, CountersOfTheTriadMatchItsWork) {
  const fs::path human = build("triad_cuda", true);
  const fs::path binary = build("triad_cuda");
  if (binary.empty() || human.empty())
    GTEST_SKIP() << "benchmarks/cuda/triad_cuda is not available";
  GpuProfileOptions opts = options("triad", "counters");
  GpuCounters counters = collect_gpu_counters(ctx_, bench_, binary, opts);
  if (counters.category == "insufficient-privileges")
    GTEST_SKIP() << "CUPTI refused (the recorded reason is checked): " << counters.failure;
  ASSERT_TRUE(counters.ok()) << counters.category << ": " << counters.failure;
  std::cout << dump_json(to_json(counters), 2) << "\n";
  GpuProfileOptions plain = with_library();
  plain.size = opts.size;
  GpuCounters streamed = collect_gpu_counters(ctx_, bench_, human, plain);
  ASSERT_TRUE(streamed.ok()) << streamed.category << ": " << streamed.failure;
  const double n = static_cast<double>(opts.size);
  for (const GpuCounters* run : {&counters, &streamed}) {
    const GpuKernelCounters* triad = nullptr;
    for (const auto& k : run->kernels)
      if (k.kernel.find("triad") != std::string::npos) triad = &k;
    ASSERT_NE(triad, nullptr);
    const double launches = triad->launches;
    EXPECT_NEAR(triad->fp32_flops() / launches, 2 * n, 0.01 * n);
    EXPECT_GT(triad->dram_bytes / launches, 0.8 * 12 * n);
    if (run == &streamed)
      EXPECT_LT(triad->dram_bytes / launches, 1.5 * 12 * n) << "coalesced loads";
    else
      EXPECT_GT(triad->dram_bytes / launches, 3 * 12 * n) << "uncoalesced loads";
    EXPECT_GT(triad->duration_ns, 0);
    EXPECT_EQ(triad->fp64_flops(), 0);
  }
}

// Files recorded on a GPU (scripts/record-cupti-fixtures.sh) and kept in tests/fixtures/cupti.
class CuptiFixtureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = test::cupti_fixture("triad");
    if (!fs::exists(folder_ / "pcsampling" / gpu_format::kSamplesFile))
      GTEST_SKIP() << "no recorded fixtures in " << folder_
                   << ": run scripts/record-cupti-fixtures.sh on a GPU machine";
  }
  fs::path folder_;
};

TEST_F(CuptiFixtureTest, RecordedSamplesParseAndAttributeToTheKernel) {
  auto data = read_pc_sampling(folder_ / "pcsampling");
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_FALSE(data->pcs.empty());
  EXPECT_FALSE(data->cubins.empty());
  for (const auto& [index, name] : data->stall_reasons)
    EXPECT_EQ(name.rfind("smsp__pcsamp_", 0), 0u) << name;
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  SourceFiles sources;
  if (auto kernel = read_file(folder_ / "kernel.cu")) sources.by_name["kernel.cu"] = *kernel;
  GpuAttribution profile = attribute(*data, **mapper, sources);
  ASSERT_GT(profile.samples, 0u);
  EXPECT_LT(profile.unattributed, profile.samples / 10) << summarize(profile);
  ASSERT_FALSE(profile.lines.empty());
  EXPECT_EQ(profile.lines[0].file, "kernel.cu") << summarize(profile);
  EXPECT_NE(profile.lines[0].code.find("b[i] + s * c[i]"), std::string::npos) << summarize(profile);
}

TEST_F(CuptiFixtureTest, RecordedCountersMatchTheTriadsWork) {
  auto data = read_gpu_counters(folder_ / "counters");
  if (!data) GTEST_SKIP() << "no recorded counters: " << data.error().message;
  auto recorded = read_json_file(folder_ / "recorded.json");
  ASSERT_TRUE(recorded) << recorded.error().message;
  const double n = (*recorded)["size"].get<double>();
  EXPECT_EQ(data->chip, "GH100");
  for (const auto& k : per_kernel(*data)) {
    if (k.kernel.find("triad") == std::string::npos) continue;
    EXPECT_NEAR(k.fp32_flops() / k.launches, 2 * n, 0.01 * n);
    EXPECT_GT(k.dram_bytes / k.launches, 0.8 * 12 * n);
    return;
  }
  FAIL() << "no triad kernel among the recorded counters";
}

}  // namespace
}  // namespace kopt
