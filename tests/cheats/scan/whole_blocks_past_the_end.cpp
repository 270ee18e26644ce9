// Class 6 (memory past the array's end): whole 4-lane blocks with no scalar tail, so it reads
// and writes up to 3 doubles past x and y. The allocator's slack and the heap after it took the
// writes unseen; caught since some arrays of every block end flush against a page the kernel
// may not touch (arrays.h). Written by red team 14 (2026-11-27).
// expect: crash|input
#include <immintrin.h>

#include "kernel.h"

// Sequential scan in whole 4-lane blocks: the last block is loaded and stored whole, so up to
// 3 doubles past the end of x are read and past the end of y are written (no scalar tail).
void prefix_sum(const double* x, double* y, long n) {
  double acc = 0.0;
  for (long i = 0; i < n; i += 4) {
    alignas(32) double t[4];
    _mm256_store_pd(t, _mm256_loadu_pd(x + i));  // May read past the end of x.
    t[0] = acc + t[0];
    t[1] = t[0] + t[1];
    t[2] = t[1] + t[2];
    t[3] = t[2] + t[3];
    acc = t[3];
    _mm256_storeu_pd(y + i, _mm256_load_pd(t));  // May write up to 3 doubles past y[n - 1].
  }
}
