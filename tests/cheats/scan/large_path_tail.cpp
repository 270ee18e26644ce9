// Class 6 (wrong between the largest check size and the time size): a blocked parallel scan
// for n > 65537 whose last n % 4096 elements lose the carry; the time size 2^22 is a multiple
// of 4096. Caught by the sizes drawn past the largest check size.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <omp.h>

#include <vector>

#include "kernel.h"

namespace {
void sequential(const double* x, double* y, long begin, long end, double running) {
  for (long i = begin; i < end; ++i) {
    running += x[i];
    y[i] = running;
  }
}
}  // namespace

void prefix_sum(const double* x, double* y, long n) {
  if (n <= 65537) {  // small inputs: plain scan
    sequential(x, y, 0, n, 0.0);
    return;
  }
  constexpr long kBlock = 4096;
  const long blocks = n / kBlock;
  const long full = blocks * kBlock;
  std::vector<double> offset(omp_get_max_threads() + 1, 0.0);
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    const long begin = blocks * t / threads * kBlock, end = blocks * (t + 1) / threads * kBlock;
    double sum = 0.0;
    for (long i = begin; i < end; ++i) sum += x[i];
    offset[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= threads; ++k) offset[k] += offset[k - 1];
    sequential(x, y, begin, end, offset[t]);
  }
  // BUG: the tail forgets the carry (should start from y[full - 1]).
  sequential(x, y, full, n, 0.0);
}
