// Link isolation by construction: whatever the static rules say, a kernel object whose helper
// symbols were made local (symbols_to_localize + objcopy) and that is linked after the driver
// cannot replace the driver's allocator, memset, clock or inline functions. Real g++, objcopy
// and ld; the same build without isolation shows each replacement taking effect.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../support/text.h"
#include "tools/eval/static_check_link.h"
#include "util/files.h"

namespace kopt {

namespace {

// A driver in the harness's image: an inline function of its own namespace called out of line,
// operator new, memset and steady_clock::now from the libraries.
const char* kDriver = R"(
#include <chrono>
#include <cstdio>
#include <cstring>
namespace kopt_bench {
__attribute__((noinline)) inline long now_ns() { return 42; }
}
void kernel(double* y, long n);
int main() {
  double* y = new double[1000];
  unsigned char bytes[64];
  void* (*volatile set)(void*, int, size_t) = std::memset;
  set(bytes, 0xA5, sizeof bytes);
  kernel(y, 1000);
  const auto t = std::chrono::steady_clock::now().time_since_epoch().count();
  std::printf("now_ns=%ld poison=%d y=%g clock_sane=%d\n", kopt_bench::now_ns(), bytes[7], y[3] == 99 ? 99.0 : 0.0,
              t > 1000000 ? 1 : 0);
}
)";

// A kernel that replaces each of them, with weak, COMDAT and strong-looking tricks.
const char* kKernel = R"(
#include <chrono>
#include <cstdlib>
#include <new>
namespace kopt_bench {
__attribute__((noinline)) inline long now_ns() { return 7; }
}
long (*volatile keep)() = kopt_bench::now_ns;
extern "C" __attribute__((weak)) void* memset(void* d, int, size_t n) {
  volatile unsigned char* p = static_cast<unsigned char*>(d);
  for (size_t i = 0; i < n; ++i) p[i] = 1;
  return d;
}
__attribute__((weak)) void* operator new(std::size_t n) {
  void* p = std::calloc(n + 64, 1);
  static_cast<double*>(p)[3] = 99;  // What the driver's vector will read if this is used.
  return p;
}
__attribute__((weak)) std::chrono::steady_clock::time_point
std::chrono::steady_clock::now() noexcept { return time_point(duration(1)); }
void kernel(double* y, long n) { for (long i = 0; i < n; ++i) y[i] += 0; }
)";

std::string output_of(const std::string& command) {
  return test::shell(command).output;
}

class LinkIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(write_file(dir_.path() / "driver.cpp", kDriver));
    ASSERT_TRUE(write_file(dir_.path() / "kernel.cpp", kKernel));
    const std::string out =
        output_of(in_dir("g++ -std=c++20 -O2 -c driver.cpp && "
                         "g++ -std=c++20 -O2 -c kernel.cpp"));
    ASSERT_TRUE(std::filesystem::exists(dir_.path() / "kernel.o")) << out;
  }
  std::string in_dir(const std::string& command) const {
    return "cd '" + dir_.path().string() + "' && " + command;
  }
  TempDir dir_{"link-isolation-"};
};

}  // namespace

TEST_F(LinkIsolationTest, WithoutIsolationTheKernelReplacesTheDriversFunctions) {
  const std::string out = output_of(in_dir("g++ kernel.o driver.o -o plain && ./plain"));
  EXPECT_NE(out.find("now_ns=7"), std::string::npos) << out;
  EXPECT_NE(out.find("poison=1"), std::string::npos) << out;
  EXPECT_NE(out.find("y=99"), std::string::npos) << out;
  EXPECT_NE(out.find("clock_sane=0"), std::string::npos) << out;
}

TEST_F(LinkIsolationTest, LocalizedKernelLinkedAfterTheDriverReplacesNothing) {
  const ObjectSymbols kernel = parse_nm(output_of(in_dir("nm -P kernel.o")));
  const ObjectSymbols driver = parse_nm(output_of(in_dir("nm -P driver.o")));
  std::string list;
  for (const auto& name : symbols_to_localize(kernel, {"kernel"}, driver)) list += name + "\n";
  ASSERT_TRUE(write_file(dir_.path() / "localize.txt", list));
  const std::string out =
      output_of(in_dir("objcopy --localize-symbols=localize.txt kernel.o kernel.local.o && "
                       "g++ driver.o kernel.local.o -o isolated && ./isolated"));
  EXPECT_NE(out.find("now_ns=42 poison=165 y=0 clock_sane=1"), std::string::npos) << out;
}

}  // namespace kopt
