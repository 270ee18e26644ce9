// Class 4 (work outside the measured window): the call only records its arguments and
// write-protects the output, then returns at once. The first access to y after the call (the
// harness copying or poisoning the outputs, after its clock has stopped) faults, and the fault
// handler computes the whole result before letting the access go on: lazy evaluation on first
// touch. The handler comes from sysv_signal and the protection from mmap over y, neither of
// which the import scan refuses. kopt clocks the calls, and the time the candidate's process
// spends outside them against the baseline's.
// expect: deferred
// needs: timing
#include <signal.h>
#include <sys/mman.h>

#include <cmath>
#include <cstdint>

#include "kernel.h"

namespace {

struct Args {
  const double *x, *mean, *var;
  double* y;
  long rows, cols;
  double decay, eps;
} args;
char* protected_start = nullptr;
size_t protected_bytes = 0;

// Replaces the pages of y in place (their contents are recomputed anyway): mprotect without
// importing it.
void remap(int protection) {
  mmap(protected_start, protected_bytes, protection, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1,
       0);
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
