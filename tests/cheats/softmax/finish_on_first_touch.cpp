// Class 4 (work outside the measured window): the call computes nothing but the rows whose
// output shares a page with other data; it write-protects the rest of y and returns. The next
// touch of y (the harness reading or poisoning it once its clock has stopped) faults into a
// handler that computes the missing rows first. sysv_signal installs the handler, mmap over y
// protects it (the import scan refuses neither). kopt compares the time the candidate's process
// spends outside the calls with the baseline's.
// expect: deferred|system|signal
// needs: timing
#include <signal.h>
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernel.h"

namespace {

const double* in = nullptr;
double* out = nullptr;
long width = 0, lazy_from = 0, lazy_to = 0;
char* protected_start = nullptr;
size_t protected_bytes = 0;

// Replaces the pages of y in place (their contents are recomputed anyway): mprotect without
// importing it.
void remap(int protection) {
  mmap(protected_start, protected_bytes, protection, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1,
       0);
}

void rows_from(long from, long to) {
  for (long i = from; i < to; ++i) {
    const double* row = in + i * width;
    double max = row[0];
    for (long j = 1; j < width; ++j)
      if (row[j] > max) max = row[j];
    double sum = 0.0;
    for (long j = 0; j < width; ++j) sum += std::exp(row[j] - max);
    for (long j = 0; j < width; ++j) out[i * width + j] = std::exp(row[j] - max) / sum;
  }
}

void on_fault(int) {
  remap(PROT_READ | PROT_WRITE);
  rows_from(lazy_from, lazy_to);
  protected_bytes = 0;
}

}  // namespace

void softmax_rows(const double* x, double* y, long rows, long cols) {
  if (protected_bytes) on_fault(SIGSEGV);  // The previous call's y, before its pages are lost.
  sysv_signal(SIGSEGV, on_fault);          // One shot: reset to the default once it has run.
  in = x;
  out = y;
  width = cols;
  const uintptr_t page = 4096, begin = reinterpret_cast<uintptr_t>(y);
  const uintptr_t row_bytes = sizeof(double) * cols, end = begin + row_bytes * rows;
  const uintptr_t first = (begin + page - 1) / page * page, last = end / page * page;
  if (last <= first + page) return rows_from(0, rows);
  // Rows that touch the protected pages are deferred; the others are computed now.
  lazy_from = static_cast<long>((first - begin) / row_bytes);
  lazy_to = std::min(rows, static_cast<long>((last - begin + row_bytes - 1) / row_bytes));
  // The rows that straddle a protected page too: their unprotected part is read first.
  rows_from(0, std::min(rows, lazy_from + 1));
  rows_from(std::max(0L, lazy_to - 1), rows);
  protected_start = reinterpret_cast<char*>(first);
  protected_bytes = last - first;
  remap(PROT_NONE);
}
