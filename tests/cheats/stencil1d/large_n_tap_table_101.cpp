// Class 6 (hard inputs only at small sizes): past the largest check size the taps go into a
// table of 201, so radii above 100 lose their outer taps; no edge case ran past 4099. Caught by
// the edge cases at the smallest size drawn past the check sizes.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include "kernel.h"

namespace {

constexpr long kBlock = 32;
constexpr int kTable = 100;

void interior_block(const double* in, double* out, long i0, const double* w, int radius) {
  double acc[kBlock] = {};
  for (int k = -radius; k <= radius; ++k) {
    const double wk = w[k + radius];
    const double* src = in + i0 + k;
#pragma omp simd
    for (long t = 0; t < kBlock; ++t) acc[t] += wk * src[t];
  }
  for (long t = 0; t < kBlock; ++t) out[i0 + t] = acc[t];
}

void edge_point(const double* in, double* out, long n, long i, const double* w, int radius) {
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k)
    if (i + k >= 0 && i + k < n) sum += w[k + radius] * in[i + k];
  out[i] = sum;
}

void run(const double* in, double* out, long n, const double* w, int radius) {
  const long lo = radius < n ? radius : n;
  const long hi = n - radius > lo ? n - radius : lo;
  const long blocks = (hi - lo) / kBlock;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (long b = 0; b < blocks; ++b) interior_block(in, out, lo + b * kBlock, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = 0; i < lo; ++i) edge_point(in, out, n, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = lo + blocks * kBlock; i < n; ++i) edge_point(in, out, n, i, w, radius);
  }
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (n <= 4099) return run(in, out, n, w, radius);
  // Large signals: taps in a local table (at most 201 of them).
  alignas(64) double table[2 * kTable + 1];
  const int r = radius < kTable ? radius : kTable;
  for (int k = -r; k <= r; ++k) table[k + r] = w[k + radius];
  run(in, out, n, table, r);
}
