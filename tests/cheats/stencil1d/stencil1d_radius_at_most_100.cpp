// Class 6 (wrong on the specification's edge inputs): copies the taps into a fixed table of 201
// and caps the radius at 100, the largest the driver's edge cases drew, so that any wider radius
// drops its outer taps and reads the wrong ones. Caught by the edge case with a radius drawn
// log-uniformly from 101 to 16384 (kernel.h's largest; at most 2^26 / n, so at every check size).
// Written by a red team that read the harness (2026-11-26).
// expect: wrong
// Red team, spec gap: kernel.h allowed any radius >= 0 and the edge cases stopped at 100.
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
void stencil1d(const double* in, double* out, long n, const double* w_in, int radius) {
  // Taps copied into a fixed, aligned local table (no aliasing with out, one cache line
  // boundary fewer); 100 taps either side is more than any filter we see.
  constexpr int kMaxRadius = 100;
  alignas(64) double w[2 * kMaxRadius + 1];
  if (radius > kMaxRadius) radius = kMaxRadius;
  for (int k = 0; k <= 2 * radius; ++k) w[k] = w_in[k];
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
