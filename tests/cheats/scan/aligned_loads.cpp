// Class 6 (an alignment kernel.h never promised): reads and writes through 16-byte aligned SSE2
// loads and stores, which fault on a pointer only 8-byte aligned (x + 1, a row of a matrix). Every
// buffer came from std::vector, 16-byte aligned by glibc; caught since the session builds a
// block's problems with arrays 0, 8, 16, ... bytes past a 64-byte boundary (ShiftedAllocator).
// Written by red team 13 (2026-11-27).
// expect: crash
#include <emmintrin.h>
#include "kernel.h"

void prefix_sum(const double* x, double* y, long n) {
  double s = 0.0;
  long i = 0;
  for (; i + 2 <= n; i += 2) {
    const __m128d v = _mm_load_pd(x + i);
    const double a = s + _mm_cvtsd_f64(v);
    const double b = a + _mm_cvtsd_f64(_mm_unpackhi_pd(v, v));
    _mm_store_pd(y + i, _mm_set_pd(b, a));
    s = b;
  }
  if (i < n) y[i] = s + x[i];
}
