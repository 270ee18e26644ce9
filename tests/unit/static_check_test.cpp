#include "tools/eval/static_check.h"

#include <gtest/gtest.h>

namespace kopt {

namespace {

std::vector<std::string> categories(const std::vector<Finding>& findings) {
  std::vector<std::string> names;
  for (const auto& f : findings) names.push_back(f.category);
  return names;
}

}  // namespace

TEST(StaticCheckTest, CleanKernelPasses) {
  const std::string nm =
      "_Z11standardizePKdS0_S0_Pdlldd T 0 153\n"
      "exp U\n"
      "_ZN12_GLOBAL__N_16helperEv t 10 20\n"
      "_ZNSt6vectorIdSaIdEE17_M_realloc_insertIJRKdEEEvN9__gnu_cxx17__normal_iteratorIPdS1_EEDpOT_ "
      "W 0 10\n"
      "GOMP_parallel U\n";
  EXPECT_TRUE(check_symbols(nm, {"standardize"}).empty());
}

TEST(StaticCheckTest, DeniedImportsAreNamed) {
  auto findings =
      check_symbols("fopen U\nsocket U\nfork U\npthread_create U\nclock_gettime U\n", {"f"});
  EXPECT_EQ(categories(findings),
            (std::vector<std::string>{"file-access", "network", "process", "thread", "clock"}));
  EXPECT_NE(findings[0].message.find("calls fopen()"), std::string::npos);
}

TEST(StaticCheckTest, VersionedImportsAreRecognized) {
  EXPECT_EQ(categories(check_symbols("connect@GLIBC_2.2.5 U\n", {"f"})),
            std::vector<std::string>{"network"});
}

TEST(StaticCheckTest, StdThreadAndFileStreamsAreDenied) {
  auto findings = check_symbols(
      "_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE U\n"
      "_ZNSt13basic_filebufIcSt11char_traitsIcEE4openEPKcSt13_Ios_Openmode U\n",
      {"f"});
  EXPECT_EQ(categories(findings), (std::vector<std::string>{"thread", "file-access"}));
}

TEST(StaticCheckTest, DefiningALibraryFunctionIsInterposition) {
  auto findings = check_symbols("clock_gettime T 0 10\n", {"standardize"});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].category, "interposition");
}

TEST(StaticCheckTest, ExtraGlobalFunctionIsOutsideTheInterface) {
  auto findings = check_symbols("_Z6helperv T 0 10\n_Z1fv T 0 10\n", {"f"});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].category, "interface");
  EXPECT_NE(findings[0].message.find("helper()"), std::string::npos);
}

TEST(StaticCheckTest, RawSyscallAndRdtscInstructionsAreFound) {
  EXPECT_EQ(categories(check_instructions("  4:\tsyscall \n")), std::vector<std::string>{"system"});
  EXPECT_EQ(categories(check_instructions("  4:\trdtsc  \n")), std::vector<std::string>{"clock"});
  EXPECT_TRUE(check_instructions("  4:\tvfmadd231pd %ymm0,%ymm1,%ymm2\n").empty());
}

TEST(StaticCheckTest, BaseNameDropsQualifiersAndTemplates) {
  EXPECT_EQ(base_name("ns::inner::f<int>(double const*, long)"), "f");
  EXPECT_EQ(base_name("f"), "f");
  EXPECT_EQ(demangle("_Z1fv"), "f()");
}

}  // namespace kopt
