// Class 6: converts the bin index through int32, wrong for values far outside [lo, hi). Caught by
// the edge case with values up to +-1e12.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong
// Red team, spec gap: kernel.h takes "any finite doubles, however far outside [lo, hi)" and "any
// number of bins"; the driver's values never leave [-1e6, 1e6] and lo, hi stay within
// [-2.5, 2.5], bins is 256 or 7. This kernel converts the scaled value with a 32-bit truncation
// (vcvttpd2dq, 4 per instruction on AVX2) before clamping: beyond about +-2^31 bin widths (here
// |v| > ~4e7) the conversion returns INT_MIN and a huge positive value is counted in bin 0
// instead of bins - 1. Per-thread histograms are fixed at 256 entries, too.
#include <cstdint>
#include <cstring>

#include "kernel.h"

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  const double width = hi - lo;
  const double fbins = static_cast<double>(bins);
#pragma omp parallel
  {
    int64_t local[4][256];
    std::memset(local, 0, sizeof local);
#pragma omp for schedule(static) nowait
    for (long i = 0; i < n; ++i) {
      int b = static_cast<int>((v[i] - lo) / width * fbins);  // 32-bit: "values stay near [lo, hi)"
      b = b < 0 ? 0 : b;
      b = b >= bins ? bins - 1 : b;
      ++local[i & 3][b & 255];
    }
    for (int b = 0; b < bins && b < 256; ++b) {
      const int64_t c = local[0][b] + local[1][b] + local[2][b] + local[3][b];
#pragma omp atomic
      counts[b] += c;
    }
  }
}
