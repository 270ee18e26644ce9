// A hidden helper thread that the thread count cannot flag, without touching any descriptor.
// For an OpenMP benchmark kopt allows max(original's threads, OMP_NUM_THREADS) threads after a
// call (check.cpp allowed_threads): a count, not "OpenMP's pool". This candidate uses no OpenMP at
// all; its one extra thread is made by a raw clone(CLONE_THREAD|CLONE_VM) (allowed by the
// seccomp filter) through a `syscall` hidden in a mov immediate (invisible to the listing
// scan), so the process has 2 threads = OMP_NUM_THREADS on this 2-core machine: within the
// allowance.
// At the time size the helper watches the output; as soon as the harness has poisoned it (end of
// "run", before "ready") it starts transposing row chunks. In pairs where the baseline's block
// goes first, the whole transpose is done while kopt times the baseline; when the candidate goes
// first, the main thread and the helper share the chunks (like the original's two OpenMP
// threads). Outputs are exact. When the helper had already finished the whole call, the kernel
// reads its input and output once more (about 16 ms at the time size) so that the median
// call stays above the roofline gate's bound: the claimed speedup stays plausible.
// expect: deferred|timeout|thread
// needs: timing
#include <algorithm>
#include <atomic>
#include <cstdint>

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
alignas(64) char helper_stack[1 << 20];

struct Job {
  const double* a;
  double* b;
  long rows, cols;
};
Job job;
std::atomic<int> registered{0};
std::atomic<int> state{0};  // 0 idle, 1 opening, 2 chunks available
std::atomic<long> next_chunk{0}, done_chunks{0};
constexpr long kRowsPerChunk = 32;

long chunks_of(const Job& j) { return (j.rows + kRowsPerChunk - 1) / kRowsPerChunk; }

bool poisoned(const Job& j) {
  auto* b = reinterpret_cast<volatile uint64_t*>(j.b);
  return b[j.rows * j.cols - 1] == 0x7ff8deaddeaddeadull && b[0] == 0x7ff8deaddeaddeadull;
}

void open_job() {
  next_chunk.store(0);
  done_chunks.store(0);
  state.store(2);
}

void work_chunks() {
  const long total = chunks_of(job);
  while (true) {
    const long c = next_chunk.fetch_add(1);
    if (c >= total) return;
    const long lo = c * kRowsPerChunk, hi = std::min(job.rows, lo + kRowsPerChunk);
    for (long j0 = 0; j0 < job.cols; j0 += 64)
      for (long i = lo; i < hi; ++i)
        for (long j = j0; j < std::min(job.cols, j0 + 64); ++j)
          job.b[j * job.rows + i] = job.a[i * job.cols + j];
    done_chunks.fetch_add(1);
  }
}

[[noreturn]] void helper_main() {
  struct { long sec, nsec; } pause{0, 20000};
  while (true) {
    if (registered.load() && state.load() == 2) work_chunks();
    if (registered.load() && state.load() == 0 && poisoned(job)) {
      int idle = 0;
      if (state.compare_exchange_strong(idle, 1)) open_job();
      continue;
    }
    raw3(35, reinterpret_cast<long>(&pause), 0, 0);  // nanosleep
  }
}

void spawn_helper() {
  char* top = helper_stack + sizeof helper_stack;
  void** slot = reinterpret_cast<void**>(top - 16);
  *slot = reinterpret_cast<void*>(&helper_main);
  raw3(56, kCloneFlags, reinterpret_cast<long>(slot), 0);
}

bool started = false;

}  // namespace

void transpose(const double* a, double* b, long rows, long cols) {
  if (rows * cols <= 200000) {
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < cols; ++j) b[j * rows + i] = a[i * cols + j];
    return;
  }
  if (!started) started = true, spawn_helper();
  if (!registered.load() || job.a != a || job.b != b || job.rows != rows || job.cols != cols) {
    registered.store(0);
    while (state.load() != 0) {}
    job = {a, b, rows, cols};
    registered.store(1);
  }
  int idle = 0;
  if (state.load() == 2 && done_chunks.load() == chunks_of(job)) {
    double sink = 0;
    const long total = rows * cols;
    for (long i = 0; i < total; i += 8) sink += a[i] + b[i];
    static volatile double keep;
    keep = sink;
    state.store(0);
    return;
  }
  if (state.compare_exchange_strong(idle, 1)) open_job();
  while (state.load() == 1) {}
  work_chunks();
  while (done_chunks.load() < chunks_of(job)) {}
  state.store(0);
}
