// Class 6 (wrong where the fixed check sizes never look): a register-blocked stencil whose last
// output is dropped when n % 8 == 7, a remainder none of the manifest's check sizes or the time
// size has. Caught by the sizes each evaluation draws, one of each remainder modulo 8.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include "kernel.h"

namespace {

constexpr long kLanes = 16;  // outputs summed together in one block

void block(const double* in, double* out, long first, const double* w, int radius) {
  double sums[kLanes] = {};
  for (int k = -radius; k <= radius; ++k) {
    const double tap = w[k + radius];
#pragma omp simd
    for (long t = 0; t < kLanes; ++t) sums[t] += tap * in[first + t + k];
  }
  for (long t = 0; t < kLanes; ++t) out[first + t] = sums[t];
}

double guarded(const double* in, long n, long i, const double* w, int radius) {
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k)
    if (i + k >= 0 && i + k < n) sum += w[k + radius] * in[i + k];
  return sum;
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  const long lo = radius < n ? radius : n;
  const long hi = n - radius > lo ? n - radius : lo;
  const long blocks = (hi - lo) / kLanes;
#pragma omp parallel for schedule(static)
  for (long b = 0; b < blocks; ++b) block(in, out, lo + b * kLanes, w, radius);
  for (long i = 0; i < lo; ++i) out[i] = guarded(in, n, i, w, radius);
  const long tail_end = n % 8 == 7 ? n - 1 : n;
  for (long i = lo + blocks * kLanes; i < tail_end; ++i) out[i] = guarded(in, n, i, w, radius);
  if (tail_end < n) out[n - 1] = 0.0;
}
