// The judging session against real drivers built by the real toolchain, in the real sandbox.
#include "tools/eval/driver_session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"

#include "tools/benchmark/benchmark.h"
#include "tools/eval/build.h"
#include "tools/eval/driver_run.h"
#include "util/files.h"
#include "util/proc_view.h"

namespace kopt {

namespace {

class DriverSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = default_context(runner_, true);
    auto bench = find_benchmark("licm", default_suite());
    ASSERT_TRUE(bench.ok()) << bench.error().message;
    bench_ = *bench;
  }

  std::filesystem::path build(const std::string& source) {
    BuildOutcome built = Builder(ctx_).build(bench_, source);
    EXPECT_TRUE(built.ok) << built.failure;
    return built.binary;
  }

  std::filesystem::path original() { return build(read_file(bench_.kernel_path()).value()); }

  LocalProcessRunner runner_;
  ExecutionContext ctx_;
  Benchmark bench_;
};

// Opens the command line with a system call the static checks cannot see (its bytes 0f 05 sit
// in a mov immediate) and fills y with what the call returned.
const char* kCommandLineProbe = R"(#include "kernel.h"
extern "C" void disguised();
asm(".text\n.type disguised, @function\ndisguised:\n.byte 0xb8, 0x0f, 0x05, 0x90, 0x90\nret\n");
void standardize(const double*, const double*, const double*, double* y, long rows, long cols,
                 double, double) {
  long fd;
  const auto entry = reinterpret_cast<const char*>(&disguised) + 1;
  asm volatile("call *%[entry]" : "=a"(fd) : [entry] "r"(entry), "a"(257L), "D"(-100L),
               "S"("/proc/self/cmdline"), "d"(0L) : "rcx", "r11", "r8", "r9", "r10", "memory");
  for (long i = 0; i < rows * cols; ++i) y[i] = static_cast<double>(fd);
}
)";

}  // namespace

TEST_F(DriverSessionTest, TwoSessionsOfTheOriginalAgreeCallByCall) {
  const auto binary = original();
  DriverSession a(ctx_, bench_, binary, default_memory_limit());
  DriverSession b(ctx_, bench_, binary, default_memory_limit());
  ASSERT_FALSE(a.failed()) << a.failure().reason;
  ASSERT_TRUE(a.setup(65, 3) && b.setup(65, 3)) << a.failure().reason << b.failure().reason;
  BlockTiming ta, tb;
  ASSERT_TRUE(a.call_block({11, 12, 13}, 60, ta)) << a.failure().reason;
  ASSERT_TRUE(b.call_block({11, 12, 13}, 60, tb)) << b.failure().reason;
  EXPECT_EQ(ta.calls, 3);
  EXPECT_GT(ta.kernel_seconds, 0);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(identical(a.output(i, 0), b.output(i, 0)));
  EXPECT_FALSE(identical(a.output(0, 0), a.output(1, 0)));
  EXPECT_EQ(a.output(2, 0).arrays.at(0).count, 65u * 65u);
}

TEST_F(DriverSessionTest, OutputsAreCopiedOutOfTheSharedMemory) {
  DriverSession a(ctx_, bench_, original(), default_memory_limit());
  ASSERT_TRUE(a.setup(7, 1));
  BlockTiming t;
  ASSERT_TRUE(a.call_block({1}, 60, t));
  const OutputRecord first = a.output(0, 1);
  ASSERT_TRUE(a.call_block({2}, 60, t));
  EXPECT_FALSE(identical(first, a.output(0, 2)));
  EXPECT_TRUE(identical(first, first));
}

TEST_F(DriverSessionTest, TheKernelCannotOpenTheCommandLine) {
  // The session's driver has nothing on its command line, and the system call filter installed
  // before its first reply traps the open: the verdict names the call.
  DriverSession probe(ctx_, bench_, build(kCommandLineProbe), default_memory_limit());
  ASSERT_TRUE(probe.setup(7, 1)) << probe.failure().reason;
  BlockTiming t;
  EXPECT_FALSE(probe.call_block({5}, 60, t));
  EXPECT_EQ(probe.failure().category, "system") << probe.failure().reason;
  EXPECT_NE(probe.failure().reason.find("open"), std::string::npos) << probe.failure().reason;
}

// The block's child closes the reply channel before the kernel runs: a forged reply goes
// nowhere, and the block ends when the parent says the child stopped.
TEST_F(DriverSessionTest, AForgedReplyGoesNowhere) {
  const auto cheat = test::source_root() / "tests" / "cheats" / "licm" / "forge_done_reply.cpp";
  DriverSession s(ctx_, bench_, build(read_file(cheat).value()), default_memory_limit());
  ASSERT_TRUE(s.setup(7, 1));
  BlockTiming t;
  EXPECT_TRUE(s.call_block({3}, 60, t)) << s.failure().reason;
  EXPECT_EQ(t.calls, 1);
  EXPECT_GE(t.threads, 1);
  EXPECT_GE(t.window_cpu, 0);
  if (sched_stat_of(getpid())) {  // The scheduler keeps an account (CONFIG_SCHED_INFO).
    EXPECT_GT(t.main_running, 0);
    EXPECT_GE(t.main_waiting, 0);
    EXPECT_LE(t.main_running, t.window_cpu + 1e-6) << "the main thread is one of the process's";
  }
  EXPECT_TRUE(s.call_block({4}, 60, t)) << "the session goes on: " << s.failure().reason;
}

TEST_F(DriverSessionTest, CrashingKernelIsACrash) {
  DriverSession s(ctx_, bench_,
                  build("#include \"kernel.h\"\nvoid standardize(const double*, const double*, "
                        "const double*, double* y, long, long, double, double) { y[-100000000] = "
                        "1; }\n"),
                  default_memory_limit());
  ASSERT_TRUE(s.setup(7, 1));
  BlockTiming t;
  EXPECT_FALSE(s.call_block({3}, 60, t));
  EXPECT_EQ(s.failure().category, "crash") << s.failure().reason;
}

}  // namespace kopt
