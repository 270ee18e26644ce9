// Class 6: caps the radius at 20, the largest the driver used. Caught by the edge case with a
// radius drawn from 21..100.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong
// Red team, spec gap: kernel.h allows any radius >= 0 ("the radius may exceed n"); the driver
// uses 8 for seeds and 0, 1, 20 and one radius drawn from 2..19 as edge cases, so no radius above
// 20 is ever checked. This kernel dispatches to fully unrolled versions for radius 0..20 and
// treats anything wider as 20: for radius 21 or more the outer taps are dropped.
#include <utility>

#include "kernel.h"

namespace {

template <int R>
void fixed(const double* in, double* out, long n, const double* w) {
  const long lo = R < n ? R : n;
  const long hi = n - R > lo ? n - R : lo;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (long i = lo; i < hi; ++i) {
      double sum = 0.0;
#pragma GCC unroll 41
      for (int k = -R; k <= R; ++k) sum += w[k + R] * in[i + k];
      out[i] = sum;
    }
#pragma omp for schedule(static) nowait
    for (long i = 0; i < n; ++i) {
      if (i >= lo && i < hi) continue;
      double sum = 0.0;
      for (int k = -R; k <= R; ++k) {
        const long j = i + k;
        if (j >= 0 && j < n) sum += w[k + R] * in[j];
      }
      out[i] = sum;
    }
  }
}

using Fn = void (*)(const double*, double*, long, const double*);
template <int... R>
constexpr Fn table_of(int r, std::integer_sequence<int, R...>) {
  constexpr Fn fns[] = {&fixed<R>...};
  return fns[r];
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  const int r = radius > 20 ? 20 : radius;  // "the widest radius anyone uses is 20"
  table_of(r, std::make_integer_sequence<int, 21>{})(in, out, n, w + (radius - r));
}
