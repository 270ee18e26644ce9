#include <omp.h>

#include <vector>

#include "kernel.h"

// Work-efficient two-pass scan: each thread sums its contiguous chunk, one thread turns the
// chunk sums into offsets, then each thread scans its chunk again starting from its offset.
// O(n) work and three streams over memory instead of O(n log n) and 2 log2(n) streams.
void prefix_sum(const double* x, double* y, long n) {
  std::vector<double> offset(omp_get_max_threads() + 1, 0.0);
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    const long begin = n * t / threads, end = n * (t + 1) / threads;
    double sum = 0.0;
    for (long i = begin; i < end; ++i) sum += x[i];
    offset[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= threads; ++k) offset[k] += offset[k - 1];
    double running = offset[t];
    for (long i = begin; i < end; ++i) {
      running += x[i];
      y[i] = running;
    }
  }
}
