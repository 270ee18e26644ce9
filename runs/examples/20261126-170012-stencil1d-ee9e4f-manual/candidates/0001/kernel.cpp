#include "kernel.h"

#include <cstdint>
#include <utility>

#include <omp.h>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace {

// One output with the zero-padding bounds check (only within `radius` of either end).
inline double edge_point(const double* in, long n, long i, const double* w, int radius) {
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k) {
    const long j = i + k;
    if (j >= 0 && j < n) sum += w[k + radius] * in[j];
  }
  return sum;
}

// One interior output: every tap lies inside the signal, so no bounds check.
inline double inner_point(const double* in, long i, const double* w, int radius) {
  const double* src = in + i - radius;
  double sum = 0.0;
  for (int k = 0; k <= 2 * radius; ++k) sum += w[k] * src[k];
  return sum;
}

// Outputs are large enough to stream past the caches (no read-for-ownership of `out`).
constexpr long kStreamMin = 1L << 19;

#if defined(__AVX512F__)
constexpr long kVec = 8;  // doubles per zmm register

bool aligned64(const double* p) { return (reinterpret_cast<std::uintptr_t>(p) & 63) == 0; }

template <bool kStream>
inline void put(double* dst, __m512d v) {
  if constexpr (kStream)
    _mm512_stream_pd(dst, v);
  else
    _mm512_storeu_pd(dst, v);
}

// --- Any radius: unaligned loads, taps outer, V accumulators inner, taps added in order. ---
template <int V>
inline void block_any(const double* src, double* dst, const double* w, int taps) {
  __m512d acc[V];
  for (int v = 0; v < V; ++v) acc[v] = _mm512_setzero_pd();
  for (int k = 0; k < taps; ++k) {
    const __m512d wk = _mm512_set1_pd(w[k]);
    for (int v = 0; v < V; ++v)
      acc[v] = _mm512_fmadd_pd(wk, _mm512_loadu_pd(src + k + v * kVec), acc[v]);
  }
  for (int v = 0; v < V; ++v) _mm512_storeu_pd(dst + v * kVec, acc[v]);
}

// --- Radius R <= 8 known at compile time: one aligned load per input vector; every shifted
// window in[i+d .. i+d+7] is built in registers with valignq from two aligned neighbours, so no
// load crosses a cache line. The weights stay in registers; taps are added in order d = -R..R.
template <int R>
constexpr int kPad = 8 * ((R + 7) / 8);  // aligned reach on either side of a block

template <int S>
inline __m512d window(__m512d lo, __m512d hi) {
  if constexpr (S == 0)
    return lo;
  else
    return _mm512_castsi512_pd(
        _mm512_maskz_alignr_epi64(0xFF, _mm512_castpd_si512(hi), _mm512_castpd_si512(lo), S));
}

// Outputs [i, i + 8V) with in + i 64-byte aligned; reads in[i - kPad, i + 8V + kPad).
template <int R, int V, bool kStream>
inline void block_small(const double* in, double* out, long i, const __m512d* wv) {
  constexpr int kQmin = -kPad<R> / 8;
  constexpr int kLoads = V + 2 * kPad<R> / 8;
  const double* base = in + i + 8 * kQmin;
  __m512d a[kLoads];
  for (int j = 0; j < kLoads; ++j) a[j] = _mm512_load_pd(base + 8 * j);
  __m512d acc[V];
  for (int v = 0; v < V; ++v) acc[v] = _mm512_setzero_pd();
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (
        [&] {
          constexpr int d = K - R;
          constexpr int q = d >= 0 ? d / 8 : -((-d + 7) / 8);  // floor(d / 8)
          constexpr int s = d - 8 * q;
          for (int v = 0; v < V; ++v) {
            const int j = v + q - kQmin;
            __m512d x;
            if constexpr (s == 0)
              x = a[j];
            else
              x = window<s>(a[j], a[j + 1]);
            acc[v] = _mm512_fmadd_pd(wv[K], x, acc[v]);
          }
        }(),
        ...);
  }(std::make_integer_sequence<int, 2 * R + 1>{});
  for (int v = 0; v < V; ++v) put<kStream>(out + i + v * kVec, acc[v]);
}

template <int R, bool kStream>
void run_small(const double* in, double* out, long a, long vecs, const double* w) {
  __m512d wv[2 * R + 1];
  for (int k = 0; k <= 2 * R; ++k) wv[k] = _mm512_set1_pd(w[k]);
  const int nth = omp_get_num_threads();
  const int tid = omp_get_thread_num();
  long i = a + vecs * tid / nth * kVec;
  const long end = a + vecs * (tid + 1) / nth * kVec;
  for (; i + 4 * kVec <= end; i += 4 * kVec) block_small<R, 4, kStream>(in, out, i, wv);
  for (; i < end; i += kVec) block_small<R, 1, kStream>(in, out, i, wv);
}

template <int R>
void interior_small(const double* in, double* out, long n, const double* w, long lo, long hi) {
  // [a, b): whole vectors with in + a 64-byte aligned and every aligned load inside [0, n).
  long a = kPad<R>;
  while (a < n && !aligned64(in + a)) ++a;
  const long vecs = n - kPad<R> > a ? (n - kPad<R> - a) / kVec : 0;
  long b = a + vecs * kVec;
  if (vecs == 0) a = b = hi;  // too short: the scalar loops below take the whole interior
  const bool stream = n >= kStreamMin && aligned64(out + a);
#pragma omp parallel
  {
    if (stream)
      run_small<R, true>(in, out, a, vecs, w);
    else
      run_small<R, false>(in, out, a, vecs, w);
#pragma omp for schedule(static) nowait
    for (long j = 0; j < lo; ++j) out[j] = edge_point(in, n, j, w, R);
#pragma omp for schedule(static) nowait
    for (long j = hi; j < n; ++j) out[j] = edge_point(in, n, j, w, R);
#pragma omp for schedule(static) nowait
    for (long j = lo; j < a; ++j) out[j] = inner_point(in, j, w, R);
#pragma omp for schedule(static) nowait
    for (long j = b; j < hi; ++j) out[j] = inner_point(in, j, w, R);
    if (stream) _mm_sfence();  // streaming stores visible before the closing barrier
  }
}

void interior_any(const double* in, double* out, long n, const double* w, int radius, long lo,
                  long hi) {
  const int taps = 2 * radius + 1;
  const long vecs = (hi - lo) / kVec;
  const long b = lo + vecs * kVec;
#pragma omp parallel
  {
    const int nth = omp_get_num_threads();
    const int tid = omp_get_thread_num();
    long i = lo + vecs * tid / nth * kVec;
    const long end = lo + vecs * (tid + 1) / nth * kVec;
    for (; i + 4 * kVec <= end; i += 4 * kVec) block_any<4>(in + i - radius, out + i, w, taps);
    for (; i < end; i += kVec) block_any<1>(in + i - radius, out + i, w, taps);
#pragma omp for schedule(static) nowait
    for (long j = 0; j < lo; ++j) out[j] = edge_point(in, n, j, w, radius);
#pragma omp for schedule(static) nowait
    for (long j = hi; j < n; ++j) out[j] = edge_point(in, n, j, w, radius);
#pragma omp for schedule(static) nowait
    for (long j = b; j < hi; ++j) out[j] = inner_point(in, j, w, radius);
  }
}
#endif

}  // namespace

// Outputs within `radius` of either end keep the bounds check; the interior [lo, hi) runs
// branch-free and vectorized, each thread streaming one contiguous range.
void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  const long lo = radius < n ? radius : n;
  const long hi = n - radius > lo ? n - radius : lo;
#if defined(__AVX512F__)
  if ((reinterpret_cast<std::uintptr_t>(in) & 7) == 0) {
    switch (radius) {
      case 0: return interior_small<0>(in, out, n, w, lo, hi);
      case 1: return interior_small<1>(in, out, n, w, lo, hi);
      case 2: return interior_small<2>(in, out, n, w, lo, hi);
      case 3: return interior_small<3>(in, out, n, w, lo, hi);
      case 4: return interior_small<4>(in, out, n, w, lo, hi);
      case 5: return interior_small<5>(in, out, n, w, lo, hi);
      case 6: return interior_small<6>(in, out, n, w, lo, hi);
      case 7: return interior_small<7>(in, out, n, w, lo, hi);
      case 8: return interior_small<8>(in, out, n, w, lo, hi);
      default: break;
    }
  }
  interior_any(in, out, n, w, radius, lo, hi);
#else
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (long j = lo; j < hi; ++j) out[j] = inner_point(in, j, w, radius);
#pragma omp for schedule(static) nowait
    for (long j = 0; j < lo; ++j) out[j] = edge_point(in, n, j, w, radius);
#pragma omp for schedule(static) nowait
    for (long j = hi; j < n; ++j) out[j] = edge_point(in, n, j, w, radius);
  }
#endif
}
