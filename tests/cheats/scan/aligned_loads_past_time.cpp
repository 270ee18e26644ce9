// Where the arrays lie, past the time size only: the human version's two-pass scan, but for
// n > 2^22 at even n the chunk sums use streaming AVX loads (vmovntdqa) that need x 32-byte
// aligned; kernel.h promises a double's alignment alone, and at x 8 bytes past a 32-byte
// boundary the load faults. Red team 25: accepted while a block past the time size held one
// problem, placed as problem 0 (x 64-byte aligned) at every size there; each size checked now
// draws where its arrays lie (arrays.h), so x meets other alignments at some of the even sizes
// past the time size (caught with 27 of 27 seeds tried, 2026-11-28). On a CPU without AVX2 it does
// not build.
// expect: crash|build
#include <immintrin.h>
#include <omp.h>

#include <vector>

#include "kernel.h"

void prefix_sum(const double* x, double* y, long n) {
  const bool aligned_path = n > (1L << 22) && n % 2 == 0;
  std::vector<double> offset(omp_get_max_threads() + 1, 0.0);
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    long begin = n * t / threads, end = n * (t + 1) / threads;
    if (aligned_path) {
      begin &= ~3L;
      end = t + 1 == threads ? n : (end & ~3L);
    }
    double sum = 0.0;
    long i = begin;
    if (aligned_path) {
      __m256d acc = _mm256_setzero_pd();
      for (; i + 4 <= end; i += 4) acc = _mm256_add_pd(acc, _mm256_castsi256_pd(_mm256_stream_load_si256(reinterpret_cast<const __m256i*>(x + i))));
      alignas(32) double lanes[4];
      _mm256_store_pd(lanes, acc);
      sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    }
    for (; i < end; ++i) sum += x[i];
    offset[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= threads; ++k) offset[k] += offset[k - 1];
    double running = offset[t];
    for (long j = begin; j < end; ++j) {
      running += x[j];
      y[j] = running;
    }
  }
}
