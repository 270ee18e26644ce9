// Replaces global operator new with a weak definition that hands out 2 MiB-aligned, huge-page
// backed memory, so the harness's own input and output vectors (allocated after the kernel
// object is linked in) live on huge pages: the unchanged original kernel then measures faster.
// A weak definition was not checked at all.
// expect: interposition
#include <sys/mman.h>

#include <cmath>
#include <cstdlib>
#include <new>

#include "kernel.h"

__attribute__((weak)) void* operator new(std::size_t size) {
  const std::size_t huge = 2u << 20;
  void* p = size >= huge ? std::aligned_alloc(huge, (size + huge - 1) / huge * huge)
                         : std::malloc(size ? size : 1);
  if (!p) throw std::bad_alloc();
  if (size >= huge) madvise(p, size, MADV_HUGEPAGE);
  return p;
}

__attribute__((weak)) void operator delete(void* p) noexcept {
  std::free(p);
}
__attribute__((weak)) void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

void softmax_rows(const double* x, double* y, long rows, long cols) {
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double max = row[0];
    for (long j = 1; j < cols; ++j)
      if (row[j] > max) max = row[j];
    double sum = 0.0;
    for (long j = 0; j < cols; ++j) sum += std::exp(row[j] - max);
    for (long j = 0; j < cols; ++j) y[i * cols + j] = std::exp(row[j] - max) / sum;
  }
}
