#include <cstdint>

#include "kernel.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace {

// Outputs per register block: eight AVX-512 vectors. Eight independent accumulator chains hide
// the 4-cycle FMA latency on two FMA ports (four chains would leave the ports half idle).
constexpr long kBlock = 64;
// How far ahead (in doubles) each block prefetches its input: 2 KiB, a few blocks ahead.
constexpr long kPrefetch = 256;

// Bounds-checked point, the original's loop: used only within `radius` of either end.
inline double edge_point(const double* in, long n, long i, const double* w, int radius) {
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k) {
    const long j = i + k;
    if (j >= 0 && j < n) sum += w[k + radius] * in[j];
  }
  return sum;
}

// Interior point (every tap in range): no checks, taps added in the original order.
inline double interior_point(const double* in, long i, const double* w, int radius) {
  const double* src = in + i - radius;
  double sum = 0.0;
  for (int k = 0; k <= 2 * radius; ++k) sum += w[k] * src[k];
  return sum;
}

// kBlock interior outputs from i0, with out + i0 64-byte aligned. Taps outer, outputs inner:
// per tap one broadcast and eight multiply-adds; each output still adds its taps in the
// original order (k = -radius .. radius). The output is write-only and much larger than the
// caches, so it goes out with streaming stores (no read-for-ownership of `out`).
inline void interior_block(const double* in, double* out, long i0, const double* w, int radius) {
  const double* src = in + i0 - radius;
  const int taps = 2 * radius + 1;
#if defined(__AVX512F__)
  // Prefetch hints never fault; the address is formed as an integer so it may pass the end.
  const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(src) + kPrefetch * sizeof(double);
  for (int v = 0; v < 8; ++v)
    _mm_prefetch(reinterpret_cast<const char*>(ahead + 64 * v), _MM_HINT_T0);
  __m512d a[8];
  for (int v = 0; v < 8; ++v) a[v] = _mm512_setzero_pd();
  for (int k = 0; k < taps; ++k) {
    const __m512d wk = _mm512_set1_pd(w[k]);
    const double* s = src + k;
    for (int v = 0; v < 8; ++v) a[v] = _mm512_fmadd_pd(wk, _mm512_loadu_pd(s + 8 * v), a[v]);
  }
  for (int v = 0; v < 8; ++v) _mm512_stream_pd(out + i0 + 8 * v, a[v]);
#else
  double acc[kBlock] = {};
  for (int k = 0; k < taps; ++k) {
    const double wk = w[k];
    const double* s = src + k;
#pragma omp simd
    for (long t = 0; t < kBlock; ++t) acc[t] += wk * s[t];
  }
#pragma omp simd nontemporal(out)
  for (long t = 0; t < kBlock; ++t) out[i0 + t] = acc[t];
#endif
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  // [0, lo) and [hi, n) need the bounds checks; [lo, hi) has every tap in range. A radius
  // wider than the signal leaves the interior empty (lo = hi = n).
  const long lo = radius < n ? radius : n;
  const long hi = n - radius > lo ? n - radius : lo;
  // First interior index whose output address is 64-byte aligned (a cache line, one vector).
  const long mis = static_cast<long>((reinterpret_cast<std::uintptr_t>(out + lo) & 63) / 8);
  long a = lo + (mis ? 8 - mis : 0);
  if (a > hi) a = hi;
  const long blocks = (hi - a) / kBlock;
  const long tail = a + blocks * kBlock;  // [tail, hi): fewer than kBlock interior points

#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (long b = 0; b < blocks; ++b) interior_block(in, out, a + b * kBlock, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = 0; i < lo; ++i) out[i] = edge_point(in, n, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = hi; i < n; ++i) out[i] = edge_point(in, n, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = lo; i < a; ++i) out[i] = interior_point(in, i, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = tail; i < hi; ++i) out[i] = interior_point(in, i, w, radius);
#if defined(__AVX512F__)
    _mm_sfence();  // this thread's streaming stores are globally visible before the barrier
#endif
  }
}
