// the human version with the bin count kept in a 17-bit field of a packed
// descriptor (bin indices 0..131071 fit 17 bits; the count 131072 itself does not). kernel.h
// allows 1 <= bins <= 131072; at exactly 131072 bins nothing is counted and counts stays
// unwritten. The edge case with the most bins draws its count uniformly from 4097..131072:
// 131072 comes up once in 127,000 draws.
// Caught by edge case 5, which draws kernel.h's 131072 bins half the time.
// Found by a red team that read the harness (2026-11-28).
// expect: unwritten|wrong
#include <vector>

#include "kernel.h"

namespace {
constexpr long kChunk = 512;  // values whose bins are computed together, vectorized
constexpr int kCopies = 4;    // sub-histograms per thread, so repeated bins do not serialize
}  // namespace

// Private histograms per thread instead of an atomic per value, merged once at the end. Within
// a thread the bin indices of a chunk are computed in one vectorizable loop, then counted into
// four interleaved copies so runs of the same bin do not wait on each other's increments.
void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins_in) {
  struct { unsigned bins : 17, copies : 3; } shape;  // BUG: bins up to 131071
  shape.bins = static_cast<unsigned>(bins_in);
  shape.copies = kCopies;
  const int bins = static_cast<int>(shape.bins);
  if (bins == 0) return;
  for (int b = 0; b < bins; ++b) counts[b] = 0;
#pragma omp parallel
  {
    std::vector<int64_t> local(kCopies * bins, 0);
    int index[kChunk];
    const double last = bins - 1;  // clamped in double: no integer holds a far value's bin
#pragma omp for schedule(static)
    for (long start = 0; start < n; start += kChunk) {
      const long len = n - start < kChunk ? n - start : kChunk;
      const double* chunk = v + start;
      for (long i = 0; i < len; ++i) {
        double t = (chunk[i] - lo) / (hi - lo) * bins;
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
