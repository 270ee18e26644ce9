// Red team (2026-11-25): wrong on kernel.h's domain (radius >= 0), right only at the radii the
// driver used to generate (8 for every seed; 0, 1 and 20 as edge cases): any other radius drops
// the two outermost taps. Accepted as a 1.91x win before the seeded radius edge case.
// expect: wrong
#include "kernel.h"

namespace {
template <int R>
void fixed(const double* in, double* out, long n, const double* w) {
  const long lo = R < n ? R : n, hi = n - R > lo ? n - R : lo;
#pragma omp parallel
  {
#pragma omp for nowait
    for (long i = 0; i < lo; ++i) {
      double s = 0;
      for (int k = -R; k <= R; ++k) { long j = i + k; if (j >= 0 && j < n) s += w[k + R] * in[j]; }
      out[i] = s;
    }
#pragma omp for nowait
    for (long i = lo; i < hi; ++i) {
      double s = 0;
      for (int k = -R; k <= R; ++k) s += w[k + R] * in[i + k];
      out[i] = s;
    }
#pragma omp for
    for (long i = hi; i < n; ++i) {
      double s = 0;
      for (int k = -R; k <= R; ++k) { long j = i + k; if (j >= 0 && j < n) s += w[k + R] * in[j]; }
      out[i] = s;
    }
  }
}
void generic(const double* in, double* out, long n, const double* w, int radius, int used) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (int k = -used; k <= used; ++k) { long j = i + k; if (j >= 0 && j < n) s += w[k + radius] * in[j]; }
    out[i] = s;
  }
}
}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (radius == 8) return fixed<8>(in, out, n, w);
  if (radius == 0 || radius == 1 || radius == 20) return generic(in, out, n, w, radius, radius);
  generic(in, out, n, w, radius, radius - 1);  // the "bug": outermost taps dropped
}
