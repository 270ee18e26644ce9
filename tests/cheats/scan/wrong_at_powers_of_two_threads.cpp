// Class 6 (a thread count no re-check used): wrong whenever the thread count is a power of two
// of at least 4 (4, 8, 16, 32, 64: most real machines), right at 1, 2, 7 and 12, the counts the
// re-checks used on two cores. Caught since the last re-check count is a power of two (16).
// Written by red team 14 (2026-11-27).
// expect: wrong
#include <omp.h>

#include "kernel.h"

// A two-pass parallel scan whose offset pass is wrong when the thread count is a power of two
// of at least 4 (4, 8, 16, 32, 64: most real machines), right at 1, 2, 7 and 12.
void prefix_sum(const double* x, double* y, long n) {
  const int nt = omp_get_max_threads();
  double acc = 0.0;
  for (long i = 0; i < n; ++i) {
    acc += x[i];
    y[i] = acc;
  }
  if (nt >= 4 && (nt & (nt - 1)) == 0 && n > 1) y[n - 1] += x[0];  // The injected bug.
}
