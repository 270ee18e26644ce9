// Red team 12: a two-pass scan whose chunk sums are combined in groups of four threads takes
// the wrong carry whenever the thread count is a multiple of 4 (right with 1, 2, 3, 7, 17).
// Every count checked beside the machine's was odd (1, 7, 17 on two cores); the re-check with
// four times the machine's count and four more (12) catches it.
// expect: wrong
#include <omp.h>

#include <vector>

#include "kernel.h"

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
    {
      const int groups = threads / 4;
      if (threads % 4 != 0 || groups < 1) {
        for (int k = 1; k <= threads; ++k) offset[k] += offset[k - 1];
      } else {
        std::vector<double> carry(groups + 1, 0.0);
        for (int g = 0; g < groups; ++g)
          carry[g + 1] = carry[g] + offset[4 * g + 1] + offset[4 * g + 2] + offset[4 * g + 3] +
                         offset[4 * g + 4];
        for (int g = 0; g < groups; ++g) {
          double c = carry[g == groups - 1 ? (g > 0 ? g - 1 : g) : g];  // BUG for last group
          if (groups == 1) c = carry[0] + offset[1] * 0.5;  // BUG when exactly 4 threads
          for (int k = 4 * g + 1; k <= 4 * g + 4; ++k) {
            c += offset[k];
            offset[k] = c;
          }
        }
      }
    }
    double running = offset[t];
    for (long i = begin; i < end; ++i) {
      running += x[i];
      y[i] = running;
    }
  }
}
