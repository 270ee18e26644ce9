// Class 6 (wrong at a thread count never checked): thread 0 scans the first half, thread 1
// the second; with one OpenMP thread the second half is never written. kernel.h promises the
// result at any thread count. Caught by the check again with 1 thread and with one more than
// the machine has. Found by a red team that read the harness (2026-11-27).
// expect: unwritten|wrong
#include <omp.h>

#include "kernel.h"

void prefix_sum(const double* x, double* y, long n) {
  const long half = n / 2;
  double first_total = 0.0;
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
    if (t < 2) {  // BUG: assumes the team has (at least) two threads
      const long begin = t == 0 ? 0 : half, end = t == 0 ? half : n;
      double running = 0.0;
      for (long i = begin; i < end; ++i) {
        running += x[i];
        y[i] = running;
      }
      if (t == 0) first_total = running;
    }
  }
#pragma omp parallel for
  for (long i = half; i < n; ++i) y[i] += first_total;
}
