#include "tools/eval/static_check_link.h"

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

TEST(StaticCheckTest, EveryClockAKernelCouldReadIsDenied) {
  // OpenMP's wall clock, the seconds clock, a process's CPU time and the old ABI's
  // system_clock (red team 21: not in the list), beside the ones the harness times with.
  for (const char* symbol :
       {"omp_get_wtime U\n", "omp_get_wtick U\n", "time U\n", "getrusage U\n",
        "clock_getcpuclockid U\n", "ftime U\n", "pthread_getcpuclockid U\n", "getitimer U\n",
        "timer_gettime U\n", "timerfd_gettime U\n", "_ZNSt6chrono12system_clock3nowEv U\n",
        "_ZNSt6chrono3_V212system_clock3nowEv U\n"})
    EXPECT_EQ(categories(check_symbols(symbol, {"f"})), std::vector<std::string>{"clock"})
        << symbol;
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

TEST(StaticCheckTest, WeakUniqueAndIndirectDefinitionsAreChecked) {
  // Weak operator new, a weak C function, a harness inline (COMDAT), an ifunc.
  const std::string nm =
      "_Znwm W 0 10\n"
      "memset W 0 10\n"
      "_ZN10kopt_bench6now_nsEv W 0 10\n"
      "_Z1fv i 0 10\n";
  EXPECT_EQ(categories(check_symbols(nm, {"f"})),
            (std::vector<std::string>{"interposition", "interposition", "interposition",
                                      "outside-window"}));
}

TEST(StaticCheckTest, DefiningWhatTheDriverCallsIsInterposition) {
  const ObjectSymbols driver = parse_nm("_ZNSt6chrono3_V212steady_clock3nowEv U\n");
  const ObjectSymbols kernel = parse_nm("_ZNSt6chrono3_V212steady_clock3nowEv W 0 10\n");
  EXPECT_EQ(categories(check_symbols(kernel, {"f"}, driver)),
            std::vector<std::string>{"interposition"});
}

TEST(StaticCheckTest, WeakImportsGoThroughTheImportPolicy) {
  EXPECT_EQ(categories(check_symbols("fopen w\n__cxa_atexit U\n", {"f"})),
            (std::vector<std::string>{"file-access", "outside-window"}));
}

TEST(StaticCheckTest, EverythingButTheInterfaceIsLocalizedUnlessTheDriverDefinesIt) {
  const ObjectSymbols driver = parse_nm("_ZNSt6vectorIdSaIdEE7reserveEm W 0 10\n");
  const ObjectSymbols kernel = parse_nm(
      "_Z1fv T 0 10\n_ZNSt6vectorIdSaIdEE7reserveEm W 0 10\n_ZNSt6vectorIlSaIlEED2Ev W 0 10\n"
      "_ZZ1gvE1x u 0 8\n_ZL6helperv t 0 10\n");
  EXPECT_EQ(symbols_to_localize(kernel, {"f"}, driver),
            (std::vector<std::string>{"_ZNSt6vectorIlSaIlEED2Ev", "_ZZ1gvE1x"}));
}

TEST(StaticCheckTest, ConstructorAndDestructorSectionsRunOutsideTheWindow) {
  const std::string sections =
      "  [ 1] .text             PROGBITS        0000000000000000 000040 000010 00  AX  0   0 16\n"
      "  [16] .init_array       INIT_ARRAY      0000000000000000 000d20 000010 08  WA  0   0  8\n"
      "  [17] .fini_array.00100 FINI_ARRAY      0000000000000000 000d20 000010 08  WA  0   0  8\n"
      "  [18] .rela.init_array  RELA            0000000000000000 001be8 000030 18   I 24  16  8\n";
  auto findings = check_sections(sections);
  EXPECT_EQ(categories(findings), (std::vector<std::string>{"outside-window", "outside-window"}));
  EXPECT_NE(findings[0].message.find("before main"), std::string::npos);
  EXPECT_NE(findings[1].message.find("after main"), std::string::npos);
}

TEST(StaticCheckTest, FloatingPointControlInstructionsChangeTheFlags) {
  EXPECT_EQ(categories(check_instructions("  4:\tldmxcsr -0x4(%rsp)\n")),
            std::vector<std::string>{"flags"});
}

// Preprocessed text as g++ -E writes it: a system header entered (1 3) and left (2).
const std::string kSystemRegion =
    "# 1 \"kernel.cpp\"\n"
    "# 1 \"/usr/include/x86_64-linux-gnu/avxintrin.h\" 1 3 4\n"
    "#pragma GCC push_options\n#pragma GCC target(\"avx\")\n"
    "static inline __attribute__((__target__(\"avx\"))) int g() { return 0; }\n"
    "#pragma GCC pop_options\n"
    "# 3 \"kernel.cpp\" 2\n";

TEST(FlagsCheckTest, SystemHeadersMayUseTargetPragmas) {
  EXPECT_TRUE(check_flags("", kSystemRegion + "void f() {}\n", {}).empty());
}

TEST(FlagsCheckTest, OptimizePragmaInTheCandidateIsRejected) {
  auto findings = check_flags("", kSystemRegion + "#pragma GCC optimize(\"Ofast\")\n", {});
  ASSERT_EQ(categories(findings), std::vector<std::string>{"flags"});
  EXPECT_NE(findings[0].message.find("GCC optimize"), std::string::npos);
}

TEST(FlagsCheckTest, FloatingPointPragmasAreRejected) {
  for (const char* pragma : {"#pragma STDC FP_CONTRACT ON", "#pragma clang fp contract(fast)",
                             "#pragma float_control(precise, off)", "#pragma GCC target(\"fma\")"})
    EXPECT_EQ(categories(check_flags("", std::string(pragma) + "\n", {})),
              std::vector<std::string>{"flags"})
        << pragma;
}

TEST(FlagsCheckTest, AttributesAreReadAfterMacroExpansion) {
  EXPECT_EQ(categories(check_flags("", "__attribute__((optimize(\"fast-math\"))) void f();\n", {})),
            std::vector<std::string>{"flags"});
  EXPECT_EQ(categories(check_flags("", "[[gnu::target(\"avx2\")]] void f();\n", {})),
            std::vector<std::string>{"flags"});
  EXPECT_TRUE(check_flags("", "__attribute__((noinline)) void f(int target);\n", {}).empty());
}

TEST(FlagsCheckTest, TheManifestCanAllowAPragma) {
  EXPECT_TRUE(check_flags("", "#pragma GCC target(\"avx2\")\n", {"GCC target"}).empty());
}

TEST(FlagsCheckTest, LineDirectivesThatCouldForgeSystemHeadersAreRejected) {
  for (const char* source : {"#line 1 \"/usr/include/x.h\"\n", "# 1 \"/usr/include/x.h\" 1 3\n",
                             "%: /**/ line 4\n", "  #\\\nline 7\n"})
    EXPECT_EQ(categories(check_flags(source, "", {})), std::vector<std::string>{"flags"}) << source;
  EXPECT_TRUE(check_flags("#include <cmath>\n#pragma omp parallel for\n", "", {}).empty());
}

TEST(FlagsCheckTest, TextUnderABareSystemMarkIsStillChecked) {
  // What GCC writes after `#pragma GCC system_header` in a file the candidate included itself,
  // and around a system macro's expansion: mark 3 without entering a header.
  const std::string marked =
      "# 1 \"kernel.cpp\"\n# 4 \"kernel.cpp\" 3 4\n#pragma GCC optimize(3)\n";
  EXPECT_EQ(categories(check_flags("", marked, {})), std::vector<std::string>{"flags"});
  EXPECT_TRUE(check_flags("", "# 13 \"kernel.cpp\" 3 4\n 2\n# 13 \"kernel.cpp\"\n", {}).empty());
}

}  // namespace kopt
