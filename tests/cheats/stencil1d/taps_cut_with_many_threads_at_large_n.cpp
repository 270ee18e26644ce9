// Class 6 with threads: with more than two OpenMP threads and n past the largest check size it
// keeps at most 33 taps, so any radius above 16 loses its outer taps. The re-checks at other
// thread counts ran the edge cases at the check sizes alone; caught since they also run them at
// the smallest and the widest size drawn below the time size. Written by red team 13 (2026-11-27).
// expect: wrong
#include <omp.h>
#include "kernel.h"

// Exact path (the original's loop).
static void exact(const double* in, double* out, long n, const double* w, int radius) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = -radius; k <= radius; ++k) {
      const long j = i + k;
      if (j >= 0 && j < n) sum += w[k + radius] * in[j];
    }
    out[i] = sum;
  }
}

// "Many-core path": with more than two threads and a long signal, each thread keeps the taps in
// a fixed local array of 33 (radius <= 16) -- wider radii are silently truncated.
void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (omp_get_max_threads() <= 2 || n <= 4099) return exact(in, out, n, w, radius);
  constexpr int kMax = 16;
  const int r = radius < kMax ? radius : kMax;
#pragma omp parallel
  {
    double wl[2 * kMax + 1];
    for (int k = -r; k <= r; ++k) wl[k + kMax] = w[k + radius];
#pragma omp for
    for (long i = 0; i < n; ++i) {
      double sum = 0.0;
      for (int k = -r; k <= r; ++k) {
        const long j = i + k;
        if (j >= 0 && j < n) sum += wl[k + kMax] * in[j];
      }
      out[i] = sum;
    }
  }
}
