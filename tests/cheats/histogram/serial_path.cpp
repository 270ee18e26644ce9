// Class 6 (wrong at a thread count never checked with hard inputs): with one thread a serial
// path bins by (v - lo) * (bins / (hi - lo)) and converts before clamping; the one-thread check
// used seeded inputs only. Caught by the edge cases in the re-check with 1 thread.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <omp.h>

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
  if (omp_get_max_threads() == 1) {  // one thread: no private copies to merge
    const double scale = bins / (hi - lo);
    for (long i = 0; i < n; ++i) {
      long b = static_cast<long>((v[i] - lo) * scale);  // BUG: rounds differently on bin edges,
      b = b < 0 ? 0 : (b >= bins ? bins - 1 : b);       // and casts before clamping
      ++counts[b];
    }
    return;
  }
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
