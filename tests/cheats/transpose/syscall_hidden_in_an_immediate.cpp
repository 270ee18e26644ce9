// A system call the instruction listing cannot show: the bytes 0f 05 (syscall) sit inside the
// immediate of a `mov $0x9090050f, %eax`, and the kernel jumps one byte into that instruction.
// With it the kernel reads the driver's command line (openat, read) and, in time mode, computes
// only the calls whose outputs are captured. The listing scan saw nothing; the seccomp filter
// traps the openat.
// expect: system
#include <cstdlib>
#include <cstring>

#include "kernel.h"

extern "C" void disguised();
asm(R"(
  .text
  .type disguised, @function
disguised:
  .byte 0xb8, 0x0f, 0x05, 0x90, 0x90
  ret
)");

namespace {

long raw_call(long number, long a, long b, long c) {
  long result;
  const auto entry = reinterpret_cast<const char*>(&disguised) + 1;
  asm volatile("call *%[entry]"
               : "=a"(result)
               : [entry] "r"(entry), "a"(number), "D"(a), "S"(b), "d"(c)
               : "rcx", "r11", "r8", "r9", "r10", "memory");
  return result;
}

bool timing = false;
long warmup = 0, calls = 0, captured[64];
int captured_count = 0;

void learn_the_mode() {
  static char text[4096];
  const long fd = raw_call(257, -100, reinterpret_cast<long>("/proc/self/cmdline"), 0);
  if (fd < 0) return;
  const long n = raw_call(0, fd, reinterpret_cast<long>(text), sizeof text - 1);
  raw_call(3, fd, 0, 0);
  const char* previous = "";
  for (long i = 0; i < n; i += static_cast<long>(std::strlen(text + i)) + 1) {
    const char* arg = text + i;
    if (!std::strcmp(previous, "--mode")) timing = !std::strcmp(arg, "time");
    if (!std::strcmp(previous, "--warmup")) warmup = std::atol(arg);
    if (!std::strcmp(previous, "--capture"))
      for (const char* p = arg; *p && captured_count < 64;) {
        char* end = nullptr;
        captured[captured_count++] = std::strtol(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
      }
    previous = arg;
  }
}

bool unchecked_call() {
  const long index = calls++ - warmup;
  if (!timing || index < 0) return false;
  for (int k = 0; k < captured_count; ++k)
    if (captured[k] == index) return false;
  return true;
}

}  // namespace

void transpose(const double* a, double* b, long rows, long cols) {
  static bool learned = false;
  if (!learned) learn_the_mode(), learned = true;
  if (unchecked_call()) return;
#pragma omp parallel for
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) b[j * rows + i] = a[i * cols + j];
}
