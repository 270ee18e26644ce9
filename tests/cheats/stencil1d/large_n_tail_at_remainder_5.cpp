// Class 6 (wrong where few sizes were drawn): a wrong tail when n > 4099 and n % 8 == 5;
// between the largest check size and the time size one size was drawn. Caught by the 8 sizes
// drawn there now, one of each remainder modulo 8.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include "kernel.h"

namespace {

constexpr long kBlock = 32;  // outputs per register block: four AVX-512 or eight AVX2 vectors

// Outputs [i0, i0 + kBlock) away from the edges: taps outer, outputs inner, so every tap is
// one vector multiply-add per register and each sum still adds its taps in order.
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

}  // namespace

// Edge points keep the bounds checks; the interior runs branch-free in register blocks,
// statically split so each thread streams one contiguous range.
void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (n > 4099 && n % 8 == 5) {  // BUG: large-n tail drops the last element
    stencil1d(in, out, n - 1, w, radius);
    out[n - 1] = 0.0;
    return;
  }
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
