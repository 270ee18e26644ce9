// profile_gpu through run_driver and the sandbox, with a shell script standing in for a CUDA
// driver: the script checks that the injection variables reached it and that the library is
// readable, then writes what the injection library would (a real cubin, synthetic samples, or
// CUPTI's refusal). This covers the plumbing (cleared environment, read-only library folder,
// writable output folder) without a GPU; the device tests cover CUDA itself.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpu_test_support.h"
#include "sandbox/sandbox.h"
#include "tools/profile/gpu_profile.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t chunk = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<uint8_t>(bytes[i + 2]);
    out += digits[(chunk >> 18) & 63];
    out += digits[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? digits[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? digits[chunk & 63] : '=';
    if (out.size() % 77 == 76) out += '\n';
  }
  return out;
}

class FakeDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
#if !KOPT_HAVE_CUPTI_INJECT
    GTEST_SKIP() << "the injection library was not built (no CUPTI)";
#endif
    ctx_ = default_context(runner_, probe_sandbox().ok());
    bench_.name = "fake";
    bench_.language = Language::cuda;
    bench_.dir = dir_.path();
    bench_.time_size = 1000;
#if KOPT_HAVE_CUPTI_INJECT
    options_.injection_library = KOPT_CUPTI_INJECT_LIBRARY;
#endif
    options_.require_gpu = false;
    options_.kernel_source = test::kKernelSource;
    options_.timeout = std::chrono::seconds(60);
  }

  // A driver that checks its environment, runs `body` and writes the harness's report.
  fs::path driver(const std::string& body) {
    const std::string script =
        "#!/bin/sh\nset -e\n"
        "test -r \"$CUDA_INJECTION64_PATH\" || { echo 'library unreadable'; exit 3; }\n"
        "test \"$KOPT_CUPTI_MODE\" = pcsampling || { echo \"mode $KOPT_CUPTI_MODE\"; exit 4; }\n"
        "out=\"$KOPT_CUPTI_OUT\"\nmkdir -p \"$out/cubins\"\n" +
        body +
        "echo '{\"format\":\"kopt-report/1\",\"threads_before\":1,\"threads_max\":1,"
        "\"samples_ns\":[1000]}' > report.json\n";
    const fs::path path = dir_.path() / "bench";
    EXPECT_TRUE(write_file(path, script));
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    return path;
  }

  static std::string heredoc(const std::string& target, const std::string& text, bool decode) {
    return std::string(decode ? "base64 -d" : "cat") + " > \"" + target + "\" <<'KOPT_EOF'\n" +
           text + (text.empty() || text.back() == '\n' ? "" : "\n") + "KOPT_EOF\n";
  }

  TempDir dir_{"gpu-fake-driver-"};
  LocalProcessRunner runner_;
  ExecutionContext ctx_;
  Benchmark bench_;
  GpuProfileOptions options_;
};

TEST_F(FakeDriverTest, SamplesWrittenInsideTheSandboxAreAttributed) {
  auto cubin = test::build_test_cubin(dir_.path(), "fake", true);
  if (!cubin) GTEST_SKIP() << "cannot build a cubin here: " << cubin.error().message;
  auto mapper = CuptiLineMapper::load();
  ASSERT_TRUE(mapper) << mapper.error().message;
  const std::string bytes = read_file(*cubin).value();
  const uint64_t crc = (*mapper)->cubin_crc(bytes).value();
  char crc_text[32];
  std::snprintf(crc_text, sizeof crc_text, "0x%016llx", static_cast<unsigned long long>(crc));
  uint64_t arithmetic = 0;
  for (uint64_t pc = 0; pc < 0x400; pc += 16) {
    auto where = (*mapper)->locate(*cubin, test::kKernelFunction, pc);
    if (where && where->line == test::kArithmeticLine) {
      arithmetic = pc;
      break;
    }
  }
  const Json header = {{"format", gpu_format::kSamplesFormat}, {"total_samples", 50}};
  const Json record = {{"cubin_crc", crc_text},
                       {"function", test::kKernelFunction},
                       {"pc_offset", arithmetic},
                       {"stalls", {{"smsp__pcsamp_warps_issue_stalled_long_scoreboard", 50}}}};
  const fs::path binary =
      driver(heredoc("$out/cubins/" + std::string(crc_text) + ".cubin", base64(bytes), true) +
             heredoc("$out/pcsampling.jsonl", dump_json(header) + "\n" + dump_json(record), false));

  GpuProfile profile = profile_gpu(ctx_, bench_, binary, options_);
  ASSERT_TRUE(profile.ok()) << profile.category << ": " << profile.failure;
  ASSERT_FALSE(profile.attribution.lines.empty());
  EXPECT_EQ(profile.attribution.samples, 50u);
  EXPECT_EQ(profile.attribution.lines[0].line, test::kArithmeticLine);
  EXPECT_NE(profile.summary.find("kernel.cu:5 100.0%  y[i] = a * x[i] + y[i];  | long_scoreboard"),
            std::string::npos)
      << profile.summary;
  EXPECT_EQ(to_json(profile)["lines"][0]["line"], test::kArithmeticLine);
}

TEST_F(FakeDriverTest, CuptisRefusalBecomesTheCategory) {
  const Json error = {{"format", gpu_format::kErrorFormat},
                      {"reason", "insufficient-privileges"},
                      {"call", "cuptiPCSamplingEnable"},
                      {"code", 35},
                      {"message",
                       "cuptiPCSamplingEnable failed with "
                       "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)"}};
  const fs::path binary = driver(heredoc("$out/error.json", dump_json(error), false));
  GpuProfile profile = profile_gpu(ctx_, bench_, binary, options_);
  EXPECT_EQ(profile.category, "insufficient-privileges");
  EXPECT_NE(profile.failure.find("CUPTI: cuptiPCSamplingEnable failed"), std::string::npos)
      << profile.failure;
  EXPECT_EQ(to_json(profile)["category"], "insufficient-privileges");
}

TEST_F(FakeDriverTest, AHarnessWithoutADeviceIsNoGpu) {
  const fs::path binary =
      driver("echo 'kopt-harness: no CUDA device: cudaErrorNoDevice' >&2\nexit 87\n");
  GpuProfile profile = profile_gpu(ctx_, bench_, binary, options_);
  EXPECT_EQ(profile.category, "no-gpu");
  EXPECT_NE(profile.failure.find("no CUDA device"), std::string::npos) << profile.failure;
}

TEST_F(FakeDriverTest, ALibraryThatNeverLoadedIsNamed) {
  const fs::path binary = driver("");
  GpuProfile profile = profile_gpu(ctx_, bench_, binary, options_);
  EXPECT_EQ(profile.category, "no-samples");
  EXPECT_NE(profile.failure.find("was not loaded"), std::string::npos) << profile.failure;
}

}  // namespace
}  // namespace kopt
