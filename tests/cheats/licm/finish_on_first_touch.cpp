// Class 4 (work outside the measured window): the call only records its arguments and
// write-protects the output, then returns at once. The first access to y after the call (the
// harness copying or poisoning the outputs, after its clock has stopped) faults, and the fault
// handler computes the whole result before letting the access go on: lazy evaluation on first
// touch. The handler comes from sysv_signal, which the import scan does not refuse, and the
// protection from an mprotect system call hidden in an instruction's immediate (the filter
// allows mprotect on the heap). kopt clocks the calls, and the time the candidate's process
// spends outside them against the baseline's. The import check now refuses sysv_signal (red team
// 3); without it, kopt reading the outputs out of the stopped child finds the pages unreadable.
// expect: signal|deferred
// needs: timing
#include <signal.h>
#include <sys/mman.h>

#include <cmath>
#include <cstdint>

#include "kernel.h"

extern "C" void licm_gadget();
asm(R"(
  .text
  .type licm_gadget, @function
licm_gadget:
  .byte 0xb8, 0x0f, 0x05, 0x90, 0x90
  ret
)");

namespace {

long raw3(long number, long a, long b, long c) {
  long result;
  const auto entry = reinterpret_cast<const char*>(&licm_gadget) + 1;
  asm volatile("sub $128, %%rsp\n\tcall *%[entry]\n\tadd $128, %%rsp"
               : "=a"(result)
               : [entry] "r"(entry), "a"(number), "D"(a), "S"(b), "d"(c)
               : "rcx", "r11", "r8", "r9", "r10", "memory");
  return result;
}

struct Args {
  const double *x, *mean, *var;
  double* y;
  long rows, cols;
  double decay, eps;
} args;
char* protected_start = nullptr;
size_t protected_bytes = 0;

// mprotect (system call 10) without importing it.
void remap(int protection) {
  raw3(10, reinterpret_cast<long>(protected_start), static_cast<long>(protected_bytes), protection);
}

void compute(long from, long to) {
  const Args& a = args;
  for (long k = from; k < to; ++k) {
    const long i = k / a.cols, j = k % a.cols;
    double damping = std::exp(-a.decay * static_cast<double>(i));
    double scale = 1.0 / std::sqrt(a.var[j] + a.eps);
    a.y[k] = damping * (a.x[k] - a.mean[j]) * scale;
  }
}

void on_fault(int) {
  remap(PROT_READ | PROT_WRITE);
  protected_bytes = 0;
  compute(0, args.rows * args.cols);
}

}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  if (protected_bytes) on_fault(SIGSEGV);  // The previous call's y, before its pages are lost.
  sysv_signal(SIGSEGV, on_fault);          // One shot: reset to the default once it has run.
  args = {x, mean, var, y, rows, cols, decay, eps};
  const uintptr_t page = 4096, begin = reinterpret_cast<uintptr_t>(y);
  const uintptr_t end = begin + sizeof(double) * rows * cols;
  const uintptr_t first = (begin + page - 1) / page * page, last = end / page * page;
  if (last <= first + page) return compute(0, rows * cols);
  compute(0, static_cast<long>((first - begin) / sizeof(double)));  // The unprotected edges.
  compute(static_cast<long>((last - begin) / sizeof(double)), rows * cols);
  protected_start = reinterpret_cast<char*>(first);
  protected_bytes = last - first;
  remap(PROT_NONE);
}
