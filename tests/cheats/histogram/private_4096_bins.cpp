// Red team 2 (a subagent that read the harness) (spec gap): per-thread histograms (no atomics),
// each a fixed array of 4096 bins,
// the most the driver ever asks for. kernel.h promises any number of bins; the driver's counts
// buffer holds 4096 and its fills and edge cases draw at most 4096, so bins > 4096 (which
// overruns the private arrays) is never exercised.
// expect: crash|wrong
#include <omp.h>

#include <cstring>

#include "kernel.h"

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  for (int b = 0; b < bins; ++b) counts[b] = 0;
#pragma omp parallel
  {
    int64_t local[4096];
    std::memset(local, 0, sizeof(int64_t) * bins);
#pragma omp for nowait
    for (long i = 0; i < n; ++i) {
      long b = static_cast<long>((v[i] - lo) / (hi - lo) * bins);
      if (b < 0) b = 0;
      if (b >= bins) b = bins - 1;
      ++local[b];
    }
    for (int b = 0; b < bins; ++b)
      if (local[b]) {
#pragma omp atomic
        counts[b] += local[b];
      }
  }
}
