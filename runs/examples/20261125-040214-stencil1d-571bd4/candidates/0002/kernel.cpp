#include "kernel.h"

#include <cmath>
#include <cstdint>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace {

constexpr long kBlock = 8192;  // outputs per OpenMP work item (multiple of 8)

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

// One interior output, unchecked, same tap order and the same fused multiply-add the
// original compiles to (-march=native contracts sum += w*in into an FMA).
inline double interior_one(const double* src, const double* w, int taps) {
  double sum = 0.0;
  for (int k = 0; k < taps; ++k) sum = std::fma(w[k], src[k], sum);
  return sum;
}

template <int R>
inline void interior_range(const double* in, double* out, const double* w, int radius_rt,
                           long b, long e) {
  const int radius = R >= 0 ? R : radius_rt;
  const int taps = 2 * radius + 1;
  long i = b;
#if defined(__AVX512F__)
  const bool can_align = (reinterpret_cast<std::uintptr_t>(out) & 7) == 0;
  if (can_align) {
    // peel to a 64-byte aligned output address so full tiles can use streaming stores
    while (i < e && (reinterpret_cast<std::uintptr_t>(out + i) & 63) != 0) {
      out[i] = interior_one(in + i - radius, w, taps);
      ++i;
    }
    for (; i + 32 <= e; i += 32) {
      const double* src = in + i - radius;
      __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
      __m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
      for (int k = 0; k < taps; ++k) {
        const __m512d wk = _mm512_set1_pd(w[k]);
        a0 = _mm512_fmadd_pd(wk, _mm512_loadu_pd(src + k), a0);
        a1 = _mm512_fmadd_pd(wk, _mm512_loadu_pd(src + k + 8), a1);
        a2 = _mm512_fmadd_pd(wk, _mm512_loadu_pd(src + k + 16), a2);
        a3 = _mm512_fmadd_pd(wk, _mm512_loadu_pd(src + k + 24), a3);
      }
      _mm512_stream_pd(out + i, a0);
      _mm512_stream_pd(out + i + 8, a1);
      _mm512_stream_pd(out + i + 16, a2);
      _mm512_stream_pd(out + i + 24, a3);
    }
    _mm_sfence();
  }
#endif
  constexpr long kTile = 16;
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
  for (; i < e; ++i) out[i] = interior_one(in + i - radius, w, taps);
}

template <int R>
void run(const double* in, double* out, long n, const double* w, int radius) {
  const long nblocks = (n + kBlock - 1) / kBlock;
  // interior outputs: i in [radius, n - radius); empty when n <= 2*radius
  const long ilo = radius;
  const long ihi = n - radius;
#pragma omp parallel for schedule(static)
  for (long bi = 0; bi < nblocks; ++bi) {
    const long b = bi * kBlock;
    const long e = b + kBlock < n ? b + kBlock : n;
    const long lo = b > ilo ? b : ilo;
    const long hi = e < ihi ? e : ihi;
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
