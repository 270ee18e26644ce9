// red team 13's "many-core path" (taps cut to radius 16 with more than two
// threads) moved from n > 4099 to n >= 2^20. The re-checks at other thread counts run the edge
// cases (the wide radii) only at the check sizes and at the smallest size drawn past them (the
// smallest of eight log-uniform draws from 4100..2^23, almost never >= 2^20); at the widest
// below the time size, the time size and past it they run one seed (radius 8).
// Caught by the edge cases at the size each thread re-check draws past the time size.
// Found by a red team that read the harness (2026-11-28).
// expect: wrong|precision
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
  if (omp_get_max_threads() <= 2 || n < (1L << 20)) return exact(in, out, n, w, radius);
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
