// The CPU identity that keys native builds, and the set-up's refusal of a llama-server built for
// instructions this CPU lacks (scripts/check-server-cpu.py, run by setup-local-model.sh).
#include "util/host_cpu.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>

#include "../support/text.h"
#include "util/files.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt {
namespace {

std::set<std::string> host_flags() {
  const std::string identity = host_cpu_identity();
  const auto words = split(identity.substr(identity.rfind('|') + 1), ' ');
  return {words.begin(), words.end()};
}

TEST(HostCpuTest, IdentityIsTheFirstProcessorsVendorFamilyModelAndFlags) {
  const std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
      "model name\t: Intel(R) Xeon(R) Platinum 8480+\nflags\t\t: fpu sse avx2 amx_int8\n\n"
      "processor\t: 1\nvendor_id\t: Other\ncpu family\t: 7\nmodel\t\t: 1\nflags\t\t: fpu\n";
  EXPECT_EQ(cpu_identity_of(cpuinfo), "GenuineIntel|6|143|fpu sse avx2 amx_int8");
  EXPECT_EQ(cpu_identity_of("no cpu here\n"), "");
}

TEST(HostCpuTest, TheScriptsAndKoptAgreeOnThisMachine) {
  const test::ShellResult script =
      test::shell((kopt_home() / "scripts" / "cpu-identity.sh").string());
  ASSERT_EQ(script.status, 0) << script.output;
  ASSERT_FALSE(host_cpu_identity().empty());
  EXPECT_EQ(trim(script.output), host_cpu_identity());
}

class ServerCpuCheckTest : public ::testing::Test {
 protected:
  /// Checks a server log's system_info line against this machine's /proc/cpuinfo, or against
  /// `cpuinfo` when given.
  test::ShellResult check(const std::string& system_info, const std::string& cpuinfo = "") {
    EXPECT_TRUE(write_file(dir.path() / "server.log", "load_backend: loaded CPU backend\n" +
                                                          system_info + "\nmain: loading model\n")
                    .ok());
    std::string command = "python3 " + (kopt_home() / "scripts" / "check-server-cpu.py").string() +
                          " " + (dir.path() / "server.log").string();
    if (!cpuinfo.empty()) {
      EXPECT_TRUE(write_file(dir.path() / "cpuinfo", cpuinfo).ok());
      command += " --cpuinfo " + (dir.path() / "cpuinfo").string();
    }
    return test::shell(command);
  }
  TempDir dir{"kopt-server-cpu-"};
};

TEST_F(ServerCpuCheckTest, AServerUsingAnInstructionThisCpuLacksIsRefused) {
  // ggml's names for instructions, with the /proc/cpuinfo flag that says a CPU has each.
  const std::vector<std::pair<std::string, std::string>> features = {
      {"AMX_INT8", "amx_int8"}, {"AVX512_BF16", "avx512_bf16"}, {"AVX512_VNNI", "avx512_vnni"},
      {"AVX512", "avx512f"},    {"AVX_VNNI", "avx_vnni"},       {"AVX2", "avx2"}};
  const auto flags = host_flags();
  std::string missing;
  for (const auto& [name, flag] : features)
    if (!flags.count(flag)) {
      missing = name;
      break;
    }
  // A CPU that has them all is checked as one without AVX2 (a /proc/cpuinfo of its own).
  std::string cpuinfo;
  if (missing.empty()) {
    missing = "AVX2";
    cpuinfo = "processor\t: 0\nflags\t\t: fpu sse sse2 pni avx\n";
  }
  const test::ShellResult refused = check("system_info: n_threads = 2 | CPU : SSE3 = 1 | " +
                                              missing + " = 1 | OPENMP = 1 | REPACK = 1 |",
                                          cpuinfo);
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_NE(refused.output.find("lacks: " + missing), std::string::npos) << refused.output;
}

TEST_F(ServerCpuCheckTest, AServerBuiltForThisCpuIsAccepted) {
  std::string line = "system_info: n_threads = 2 | CPU : ";
  if (host_flags().count("pni")) line += "SSE3 = 1 | ";
  if (host_flags().count("avx2")) line += "AVX2 = 1 | ";
  line += "AMX_INT8 = 0 | OPENMP = 1 | LLAMAFILE = 1 |";  // Features not compiled in are = 0.
  const test::ShellResult accepted = check(line);
  EXPECT_EQ(accepted.status, 0) << accepted.output;
}

TEST_F(ServerCpuCheckTest, ALogWithoutSystemInfoIsNotTakenAsAPass) {
  EXPECT_EQ(check("error: unknown model architecture").status, 2);
}

}  // namespace
}  // namespace kopt
