// Class 6 (wrong at a thread count never checked): chunk offsets in a table of 8, wrong from
// 9 threads on; the re-checks stopped at 7 threads. Caught by the re-check with the most threads
// (16 on two cores then, 256 now).
// Found by a red team that read the harness (2026-11-27).
// expect: wrong|unwritten|precision
#include <omp.h>

#include <vector>

#include "kernel.h"

// Work-efficient two-pass scan: each thread sums its contiguous chunk, one thread turns the
// chunk sums into offsets, then each thread scans its chunk again starting from its offset.
// O(n) work and three streams over memory instead of O(n log n) and 2 log2(n) streams.
void prefix_sum(const double* x, double* y, long n) {
  constexpr int kMaxThreads = 8;  // BUG: chunk sums for at most 8 threads (slot t % 8)
  double offset[kMaxThreads + 1] = {};
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    const long begin = n * t / threads, end = n * (t + 1) / threads;
    double sum = 0.0;
    for (long i = begin; i < end; ++i) sum += x[i];
    offset[t % kMaxThreads + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= (threads < kMaxThreads ? threads : kMaxThreads); ++k)
      offset[k] += offset[k - 1];
    double running = offset[t % kMaxThreads];
    for (long i = begin; i < end; ++i) {
      running += x[i];
      y[i] = running;
    }
  }
}
