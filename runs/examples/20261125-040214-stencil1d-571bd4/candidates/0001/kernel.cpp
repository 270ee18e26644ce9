#include "kernel.h"

#include <cmath>

namespace {

constexpr long kTile = 16;     // outputs held in registers per inner tile
constexpr long kBlock = 4096;  // outputs per OpenMP work item

// Checked path, identical to the original per output.
inline void edge_range(const double* in, double* out, long n, const double* w, int radius,
                       long b, long e) {
  for (long i = b; i < e; ++i) {
    double sum = 0.0;
    for (int k = -radius; k <= radius; ++k) {
      const long j = i + k;
      if (j >= 0 && j < n) sum += w[k + radius] * in[j];
    }
    out[i] = sum;
  }
}

// Interior: every tap in range. Same order of taps per output as the original, with the
// fused multiply-add the original compiles to (-march=native contracts sum += w*in).
template <int R>
inline void interior_range(const double* in, double* out, const double* w, int radius_rt,
                           long b, long e) {
  const int radius = R >= 0 ? R : radius_rt;
  const int taps = 2 * radius + 1;
  long i = b;
  for (; i + kTile <= e; i += kTile) {
    double acc[kTile];
    for (long t = 0; t < kTile; ++t) acc[t] = 0.0;
    const double* src = in + i - radius;
    for (int k = 0; k < taps; ++k) {
      const double wk = w[k];
#pragma omp simd
      for (long t = 0; t < kTile; ++t) acc[t] = std::fma(wk, src[k + t], acc[t]);
    }
    for (long t = 0; t < kTile; ++t) out[i + t] = acc[t];
  }
  for (; i < e; ++i) {
    double sum = 0.0;
    const double* src = in + i - radius;
    for (int k = 0; k < taps; ++k) sum = std::fma(w[k], src[k], sum);
    out[i] = sum;
  }
}

template <int R>
void run(const double* in, double* out, long n, const double* w, int radius) {
  const long nblocks = (n + kBlock - 1) / kBlock;
  // interior outputs: i in [radius, n - radius)
  const long ilo = radius;
  const long ihi = n - radius;
#pragma omp parallel for schedule(static)
  for (long bi = 0; bi < nblocks; ++bi) {
    const long b = bi * kBlock;
    const long e = b + kBlock < n ? b + kBlock : n;
    long lo = b > ilo ? b : ilo;
    long hi = e < ihi ? e : ihi;
    if (lo >= hi) {  // no interior part in this block
      edge_range(in, out, n, w, radius, b, e);
      continue;
    }
    if (b < lo) edge_range(in, out, n, w, radius, b, lo);
    interior_range<R>(in, out, w, radius, lo, hi);
    if (hi < e) edge_range(in, out, n, w, radius, hi, e);
  }
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (radius == 8)
    run<8>(in, out, n, w, radius);
  else
    run<-1>(in, out, n, w, radius);
}
