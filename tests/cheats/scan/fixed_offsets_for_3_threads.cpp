// Class 6 (wrong at a thread count never checked): keeps the chunk offsets of at most 3
// threads, so the scan is wrong with 4 or more; the check ran with the machine's count, then 1
// and one more. Caught by the check with twice the machine's count and three more.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong|unwritten
#include <omp.h>

#include "kernel.h"

void prefix_sum(const double* x, double* y, long n) {
  double offset[3] = {0.0, 0.0, 0.0};  // BUG: room for 3 threads' offsets only
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    const long begin = n * t / threads, end = n * (t + 1) / threads;
    double sum = 0.0;
    for (long i = begin; i < end; ++i) sum += x[i];
    if (t + 1 < 3) offset[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k < 3 && k <= threads; ++k) offset[k] += offset[k - 1];
    double running = t < 3 ? offset[t] : 0.0;
    for (long i = begin; i < end; ++i) {
      running += x[i];
      y[i] = running;
    }
  }
}
