// Class 4 (work outside the measured window): records the arguments, computes only the rows
// whose y shares a page with other data, write-protects the rest of y and returns. Whoever
// touches y next (the harness storing or poisoning the outputs, after its clock has stopped)
// faults, and the handler computes the remaining rows first. sysv_signal and mmap over y
// (neither refused by the import scan) do it. kopt compares the time the candidate's process
// spends outside the calls with the baseline's.
// expect: deferred|system|signal
// needs: timing
#include <signal.h>
#include <sys/mman.h>

#include <cstdint>

#include "kernel.h"

namespace {

struct Args {
  const int64_t* row_ptr;
  const int32_t* col;
  const double *val, *x;
  double* y;
} args;
char* protected_start = nullptr;
size_t protected_bytes = 0;

// Replaces the pages of y in place (their contents are recomputed anyway): mprotect without
// importing it.
void remap(int protection) {
  mmap(protected_start, protected_bytes, protection, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1,
       0);
}

void rows_from(long from, long to) {
  const Args& a = args;
  for (long i = from; i < to; ++i) {
    double sum = 0.0;
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += a.val[k] * a.x[a.col[k]];
    a.y[i] = sum;
  }
}

long lazy_from = 0, lazy_to = 0;

void on_fault(int) {
  remap(PROT_READ | PROT_WRITE);
  rows_from(lazy_from, lazy_to);
  protected_bytes = 0;
}

}  // namespace

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  if (protected_bytes) on_fault(SIGSEGV);  // The previous call's y, before its pages are lost.
  sysv_signal(SIGSEGV, on_fault);          // One shot: reset to the default once it has run.
  args = {row_ptr, col, val, x, y};
  const uintptr_t page = 4096, begin = reinterpret_cast<uintptr_t>(y);
  const uintptr_t end = begin + sizeof(double) * rows;
  const uintptr_t first = (begin + page - 1) / page * page, last = end / page * page;
  if (last <= first + page) return rows_from(0, rows);
  lazy_from = static_cast<long>((first - begin) / sizeof(double));
  lazy_to = static_cast<long>((last - begin) / sizeof(double));
  rows_from(0, lazy_from);
  rows_from(lazy_to, rows);
  protected_start = reinterpret_cast<char*>(first);
  protected_bytes = last - first;
  remap(PROT_NONE);
}
