#include <cstdint>
#include <utility>

#include "kernel.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace {

constexpr long kBlock = 64;     // outputs per register block: eight 8-double vectors
constexpr long kPrefetch = 256; // input prefetch distance in doubles (2 KiB)

inline double edge_point(const double* in, long n, long i, const double* w, int radius) {
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k) {
    const long j = i + k;
    if (j >= 0 && j < n) sum += w[k + radius] * in[j];
  }
  return sum;
}

inline double interior_point(const double* in, long i, const double* w, int radius) {
  const double* src = in + i - radius;
  double sum = 0.0;
  for (int k = 0; k <= 2 * radius; ++k) sum += w[k] * src[k];
  return sum;
}

inline void prefetch_ahead(const double* p) {
#if defined(__AVX512F__)
  const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(p) + kPrefetch * sizeof(double);
  for (int v = 0; v < 8; ++v)
    _mm_prefetch(reinterpret_cast<const char*>(ahead + 64 * v), _MM_HINT_T0);
#else
  (void)p;
#endif
}

#if defined(__AVX512F__)
template <bool Stream>
inline void store8(double* p, __m512d v) {
  if constexpr (Stream) _mm512_stream_pd(p, v); else _mm512_storeu_pd(p, v);
}

// Generic radius: kBlock outputs from i0, taps outer, outputs inner, taps in original order.
template <bool Stream>
inline void block_generic(const double* in, double* out, long i0, const double* w, int radius) {
  const double* src = in + i0 - radius;
  prefetch_ahead(src);
  __m512d a[8];
  for (int v = 0; v < 8; ++v) a[v] = _mm512_setzero_pd();
  for (int k = 0; k <= 2 * radius; ++k) {
    const __m512d wk = _mm512_set1_pd(w[k]);
    const double* s = src + k;
    for (int v = 0; v < 8; ++v) a[v] = _mm512_fmadd_pd(wk, _mm512_loadu_pd(s + 8 * v), a[v]);
  }
  for (int v = 0; v < 8; ++v) store8<Stream>(out + i0 + 8 * v, a[v]);
}

// Window of 8 inputs starting S elements into the aligned vector lo (0 < S < 8), taken from the
// aligned pair (lo, hi) with one valignq instead of a cache-line-splitting unaligned load.
template <int S>
inline __m512d window(__m512d lo, __m512d hi) {
  return _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(hi), _mm512_castpd_si512(lo), S));
}

// Radius R (compile time) with in + i0 64-byte aligned: the ten aligned input vectors of the
// block are loaded once; tap windows with a small shift are built from them with valignq (port
// 5), the others are unaligned loads (load ports), balancing the two instead of issuing 17
// mostly line-splitting loads per vector. Taps are still added in the original order.
template <int R, bool Stream>
inline void block_fixed(const double* in, double* out, long i0, const double* w) {
  static_assert(R >= 1 && R <= 8);
  const double* base = in + i0;  // 64-byte aligned
  prefetch_ahead(base);
  __m512d A[10];  // A[j] = in[i0 + 8 (j - 1) .. + 8)
  for (int j = 0; j < 10; ++j) A[j] = _mm512_load_pd(base + 8 * (j - 1));
  __m512d acc[8];
  for (int v = 0; v < 8; ++v) acc[v] = _mm512_setzero_pd();
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ([&] {
      constexpr int k = K - R;  // tap offset, -R .. R
      const __m512d wk = _mm512_set1_pd(w[K]);
      for (int v = 0; v < 8; ++v) {
        __m512d x;
        if constexpr (k == 0) x = A[v + 1];
        else if constexpr (k == -8) x = A[v];
        else if constexpr (k == 8) x = A[v + 2];
        else if constexpr (k > -5 && k < 0) x = window<8 + k>(A[v], A[v + 1]);
        else if constexpr (k > 0 && k < 5) x = window<k>(A[v + 1], A[v + 2]);
        else x = _mm512_loadu_pd(base + 8 * v + k);
        acc[v] = _mm512_fmadd_pd(wk, x, acc[v]);
      }
    }(), ...);
  }(std::make_integer_sequence<int, 2 * R + 1>{});
  for (int v = 0; v < 8; ++v) store8<Stream>(out + i0 + 8 * v, acc[v]);
}
#endif

template <bool Stream, bool Fixed8>
void interior(const double* in, double* out, long a, long blocks, const double* w, int radius) {
#pragma omp for schedule(static) nowait
  for (long b = 0; b < blocks; ++b) {
    const long i0 = a + b * kBlock;
#if defined(__AVX512F__)
    if constexpr (Fixed8) block_fixed<8, Stream>(in, out, i0, w);
    else block_generic<Stream>(in, out, i0, w, radius);
#else
    double acc[kBlock] = {};
    for (int k = 0; k <= 2 * radius; ++k) {
      const double wk = w[k];
      const double* s = in + i0 - radius + k;
#pragma omp simd
      for (long t = 0; t < kBlock; ++t) acc[t] += wk * s[t];
    }
    for (long t = 0; t < kBlock; ++t) out[i0 + t] = acc[t];
#endif
  }
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  const long lo = radius < n ? radius : n;
  const long hi = n - radius > lo ? n - radius : lo;
  // Blocks start where the input is 64-byte aligned; the output then is too when the two
  // buffers share their offset within a cache line, and only then are streaming stores used.
  const long mis = static_cast<long>((reinterpret_cast<std::uintptr_t>(in + lo) & 63) / 8);
  long a = lo + (mis ? 8 - mis : 0);
  if (a > hi) a = hi;
  const long blocks = (hi - a) / kBlock;
  const long tail = a + blocks * kBlock;
  const bool stream = (reinterpret_cast<std::uintptr_t>(out + a) & 63) == 0;
  const bool fixed8 = radius == 8;

#pragma omp parallel
  {
    if (stream) {
      if (fixed8) interior<true, true>(in, out, a, blocks, w, radius);
      else interior<true, false>(in, out, a, blocks, w, radius);
    } else {
      if (fixed8) interior<false, true>(in, out, a, blocks, w, radius);
      else interior<false, false>(in, out, a, blocks, w, radius);
    }
#pragma omp for schedule(static) nowait
    for (long i = 0; i < lo; ++i) out[i] = edge_point(in, n, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = hi; i < n; ++i) out[i] = edge_point(in, n, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = lo; i < a; ++i) out[i] = interior_point(in, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = tail; i < hi; ++i) out[i] = interior_point(in, i, w, radius);
#if defined(__AVX512F__)
    _mm_sfence();
#endif
  }
}
