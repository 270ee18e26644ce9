// Aimed at kopt-driver/4 (outputs read by kopt out of the stopped child): the call computes
// only the edges of y and leaves its inner pages without access (an mprotect system call hidden
// in an instruction's immediate), in the hope that whoever reads them next finishes the work;
// no handler runs in a stopped process, and kopt's read of the pages fails: "deferred". (The
// check's block that refills a problem and calls it again crashes on those pages first.)
// expect: deferred|crash
// needs: timing
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

}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
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
