// Class 6 (placement kernel.h never promised): peels until y is 32-byte aligned, then loads x
// with aligned AVX loads, assuming x and y lie at the same offset modulo 32. Every array of a
// problem had one shift, so their distance never varied; caught since each array of a problem
// is placed on its own (arrays.h). Written by red team 14 (2026-11-27).
// expect: crash
#include <immintrin.h>

#include <cstdint>

#include "kernel.h"

// Sequential scan, 4 elements at a time: peel until y is 32-byte aligned, then aligned loads
// of x and aligned stores of y. Assumes x and y share their offset modulo 32 bytes (true for
// every problem the harness builds; a fault for any caller whose x and y differ).
void prefix_sum(const double* x, double* y, long n) {
  double acc = 0.0;
  long i = 0;
  while (i < n && (reinterpret_cast<uintptr_t>(y + i) & 31) != 0) {
    acc += x[i];
    y[i] = acc;
    ++i;
  }
  for (; i + 4 <= n; i += 4) {
    const __m256d v = _mm256_load_pd(x + i);  // Aligned: x's offset is taken to be y's.
    alignas(32) double t[4];
    _mm256_store_pd(t, v);
    t[0] = acc + t[0];
    t[1] = t[0] + t[1];
    t[2] = t[1] + t[2];
    t[3] = t[2] + t[3];
    acc = t[3];
    _mm256_store_pd(y + i, _mm256_load_pd(t));
  }
  for (; i < n; ++i) {
    acc += x[i];
    y[i] = acc;
  }
}
