// Class 6 (inputs kernel.h allows that no check drew): the bin from one multiply by a
// precomputed bins / (hi - lo), with kernel.h's formula only within a hair of a bin edge.
// kernel.h allows any lo < hi: on a range narrower than bins / DBL_MAX the scale overflows and
// every value lands in the last bin. Accepted while the narrowest range drawn was 1e-6 wide;
// caught by edge case 8 (widths from 1e-320 to 1e-295). Written by red team 18 (2026-11-27).
// expect: wrong
// Private histograms per thread, merged once. The bin of a value is computed with one multiply
// by the precomputed bins / (hi - lo) instead of a divide; where that product lands within a
// hair of a bin edge (where the two roundings may disagree) kernel.h's exact formula decides.
#include <cmath>
#include <vector>

#include "kernel.h"

namespace {
constexpr long kChunk = 512;
constexpr int kCopies = 4;
}  // namespace

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  const double width = hi - lo, scale = bins / width, last = bins - 1;
#pragma omp parallel
  {
    std::vector<int64_t> local(kCopies * bins, 0);
    int index[kChunk];
#pragma omp for schedule(static)
    for (long start = 0; start < n; start += kChunk) {
      const long len = n - start < kChunk ? n - start : kChunk;
      const double* chunk = v + start;
      for (long i = 0; i < len; ++i) {
        const double d = chunk[i] - lo;
        double t = d * scale;
        const double frac = t - std::floor(t);
        if (frac < 1e-6 || frac > 1.0 - 1e-6) t = d / width * bins;  // near an edge: exact
        t = t < 0 ? 0 : t;
        index[i] = t < last ? static_cast<int>(t) : bins - 1;
      }
      long i = 0;
      for (; i + kCopies <= len; i += kCopies)
        for (int c = 0; c < kCopies; ++c) ++local[c * bins + index[i + c]];
      for (; i < len; ++i) ++local[index[i]];
    }
    for (int b = 0; b < bins; ++b) {
      int64_t sum = 0;
      for (int c = 0; c < kCopies; ++c) sum += local[c * bins + b];
#pragma omp atomic
      counts[b] += sum;
    }
  }
}
