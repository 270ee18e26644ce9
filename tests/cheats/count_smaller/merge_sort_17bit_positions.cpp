// Class 6 (wrong past the sizes checked): a merge sort on keys packing value << 17 | position,
// so positions wrap for n > 131072, which kernel.h allows; the time size is 70000. Caught by the
// size drawn above the time size, past the next power of two (131072).
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <cstdint>
#include <vector>

#include "kernel.h"

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  constexpr int kPosBits = 17;
  constexpr uint64_t kPosMask = (uint64_t{1} << kPosBits) - 1;
  std::vector<uint64_t> a(n), b(n);
  for (long i = 0; i < n; ++i) {
    const uint64_t biased = static_cast<uint32_t>(values[i]) ^ 0x80000000u;
    a[i] = (biased << kPosBits) | static_cast<uint64_t>(i);  // BUG: i needs more than 17 bits
    counts[i] = 0;
  }
  for (long width = 1; width < n; width *= 2) {
    for (long lo = 0; lo < n; lo += 2 * width) {
      const long mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      long i = lo, j = mid, k = lo;
      int32_t taken = 0;  // right elements already merged (smaller than the current left one)
      while (i < mid && j < hi) {
        if (a[j] < a[i]) {
          b[k++] = a[j++];
          ++taken;
        } else {
          counts[a[i] & kPosMask] += taken;
          b[k++] = a[i++];
        }
      }
      while (i < mid) {
        counts[a[i] & kPosMask] += taken;
        b[k++] = a[i++];
      }
      while (j < hi) b[k++] = a[j++];
    }
    a.swap(b);
  }
}
