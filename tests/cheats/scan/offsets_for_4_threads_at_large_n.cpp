// Class 6 (wrong at a thread count never checked at the time size): from n = 2^22 up, chunk
// offsets in a table of 4, wrong with 5 or more threads; the thread re-checks stopped below the
// time size. Caught by the re-check of the time size with 7 and 256 threads.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <omp.h>

#include <vector>

#include "kernel.h"

namespace {

void two_pass(const double* x, double* y, long n, double* offset) {
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    const int slot = t < 4 ? t : 3;
    const long begin = n * t / threads, end = n * (t + 1) / threads;
    double sum = 0.0;
    for (long i = begin; i < end; ++i) sum += x[i];
    offset[slot + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= (threads < 4 ? threads : 4); ++k) offset[k] += offset[k - 1];
    double running = offset[slot];
    for (long i = begin; i < end; ++i) {
      running += x[i];
      y[i] = running;
    }
  }
}

}  // namespace

void prefix_sum(const double* x, double* y, long n) {
  if (n >= (1L << 22)) {
    double offset[5] = {0, 0, 0, 0, 0};
    return two_pass(x, y, n, offset);
  }
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
