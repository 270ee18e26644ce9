// Makes the baseline slower instead of the candidate faster. The kernel's arithmetic is the
// original's, computed on the calling thread inside kopt's window. But on its first call it
// closes the harness's /proc/self/task descriptor (so every "stored" reports 0 threads) and
// starts a thread with a raw clone(CLONE_THREAD|CLONE_VM) through a `syscall` hidden in a mov
// immediate (the filter allows such clones; the listing scan cannot see the instruction).
// At the time size that thread watches the output array: once the harness has poisoned it (the
// end of "run", before "ready") and until the kernel is called, it streams through a 96 MiB
// buffer. That interval is exactly the baseline's block in pairs where the baseline goes first
// (the candidate's process is idle, waiting for "go"), so the thread steals the second core,
// memory bandwidth and the LLC from the baseline. It sleeps during the candidate's own fill,
// calls and store, so those phases look normal to the untimed-phase comparison.
// expect: system
// needs: timing
#include <unistd.h>

#include <atomic>
#include <cmath>

#include "kernel.h"

extern "C" void kb_gadget();
asm(R"(
  .text
  .type kb_gadget, @function
kb_gadget:
  .byte 0xb8, 0x0f, 0x05, 0x90, 0x90
  ret
)");

namespace {

long raw3(long number, long a, long b, long c) {
  long result;
  const auto entry = reinterpret_cast<const char*>(&kb_gadget) + 1;
  asm volatile("sub $128, %%rsp\n\tcall *%[entry]\n\tadd $128, %%rsp"
               : "=a"(result)
               : [entry] "r"(entry), "a"(number), "D"(a), "S"(b), "d"(c)
               : "rcx", "r11", "r8", "r9", "r10", "memory");
  return result;
}

constexpr long kCloneFlags = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000;
alignas(64) char hog_stack[1 << 16];
constexpr long kHog = (96l << 20) / 8;
double hog[kHog];
std::atomic<int> in_call{0};
std::atomic<double*> watch{nullptr};
std::atomic<long> watch_last{0};

bool poisoned() {
  double* y = watch.load();
  if (!y) return false;
  return reinterpret_cast<volatile unsigned long*>(y)[watch_last.load()] == 0x7ff8deaddeaddeadul;
}

[[noreturn]] void hog_main() {
  struct { long sec, nsec; } pause{0, 50000};
  double sink = 0;
  while (true) {
    if (in_call.load(std::memory_order_relaxed) || !poisoned()) {
      raw3(35, reinterpret_cast<long>(&pause), 0, 0);  // nanosleep: leave the core to the kernel
      continue;
    }
    for (long i = 0; i < kHog && !in_call.load(std::memory_order_relaxed); i += 4096) {
      for (long j = i; j < i + 4096; j += 8) hog[j] += 1.0, sink += hog[j + 4];
    }
    reinterpret_cast<volatile double&>(hog[0]) = sink;
  }
}

void spawn_hog() {
  char* top = hog_stack + sizeof hog_stack;
  void** slot = reinterpret_cast<void**>(top - 16);
  *slot = reinterpret_cast<void*>(&hog_main);
  raw3(56, kCloneFlags, reinterpret_cast<long>(slot), 0);
}

bool started = false;

}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  if (!started) {
    started = true;
    for (int fd = 5; fd < 64; ++fd) close(fd);
    spawn_hog();
  }
  in_call.store(1);
  if (rows * cols > 1000000 && watch.load() != y) {
    watch.store(nullptr);
    watch_last.store(rows * cols - 1);
    watch.store(y);
  }
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
  in_call.store(0);
}
