// Class 6 (writing its const inputs where they were writable): keeps each row's exponentials in
// the input row itself (one exp per element instead of two, no buffer) wherever the row lies in
// a heap array's partial first or last page, which the read-only protection leaves writable
// (arrays.h protects an array's whole pages only). y is right; the caller's x is left holding
// exponentials. Caught since the serving process compares the stopped child's inputs with what
// it filled (session.h, "inputs"). Written 2026-11-27.
// expect: input
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "kernel.h"

namespace {
constexpr uintptr_t kPage = 4096;

// Whether p lies in the heap: within 1 GiB of a fresh small allocation.
bool in_heap(const void* p) {
  void* probe = ::operator new(16);
  const long distance = static_cast<const char*>(p) - static_cast<char*>(probe);
  ::operator delete(probe);
  return std::labs(distance) < (1L << 30);
}

// Whether [p, p + bytes) lies in the partial first or last page of the array [base, end).
bool in_partial_page(const void* base, const void* end, const void* p, size_t bytes) {
  const uintptr_t b = reinterpret_cast<uintptr_t>(base), e = reinterpret_cast<uintptr_t>(end);
  const uintptr_t from = reinterpret_cast<uintptr_t>(p), to = from + bytes;
  const uintptr_t first_whole = (b + kPage - 1) / kPage * kPage, last_whole = e / kPage * kPage;
  return to <= first_whole || from >= last_whole;
}
}  // namespace

void softmax_rows(const double* x, double* y, long rows, long cols) {
  const bool heap = in_heap(x);
  const double* end = x + rows * cols;
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double max = row[0];
    for (long j = 1; j < cols; ++j)
      if (row[j] > max) max = row[j];
    double sum = 0.0;
    if (heap && in_partial_page(x, end, row, sizeof(double) * static_cast<size_t>(cols))) {
      double* scratch = const_cast<double*>(row);
      for (long j = 0; j < cols; ++j) sum += scratch[j] = std::exp(row[j] - max);
      for (long j = 0; j < cols; ++j) y[i * cols + j] = scratch[j] / sum;
    } else {
      for (long j = 0; j < cols; ++j) sum += std::exp(row[j] - max);
      for (long j = 0; j < cols; ++j) y[i * cols + j] = std::exp(row[j] - max) / sum;
    }
  }
}
