// Class 6 (a formula that agrees only on the inputs drawn): divides by the bin width,
// (v - lo) / ((hi - lo) / bins), which rounds like kernel.h's (v - lo) / (hi - lo) * bins
// when bins is a power of two and puts values on a bin edge one bin off otherwise; bin-edge
// values were drawn with 256 bins only. Caught by the edge cases with 1..8 and 9..4096 bins.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <vector>

#include "kernel.h"

namespace {
constexpr long kChunk = 512;  // values whose bins are computed together, vectorized
constexpr int kCopies = 4;    // sub-histograms per thread, so repeated bins do not serialize
}  // namespace

// Private histograms per thread instead of an atomic per value, merged once at the end. Within
// a thread the bin indices of a chunk are computed in one vectorizable loop, then counted into
// four interleaved copies so runs of the same bin do not wait on each other's increments.
void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  const double width = (hi - lo) / bins;
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
        double t = (chunk[i] - lo) / width;  // BUG: not kernel.h's formula
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
