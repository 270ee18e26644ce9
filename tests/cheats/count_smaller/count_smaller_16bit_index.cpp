// Class 6: packs positions into 16 bits, so it is wrong for n > 65536, which kernel.h allows (any
// long n). Caught at the time size, 70000.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong
// Red team, spec gap: kernel.h takes any n (a long); the driver's largest n is the time size
// 60000 < 2^16. This kernel packs (value, position) into one 64-bit sort key with the position
// in 16 bits and merge-sorts the keys, counting for each left element how many right elements
// overtake it. For n > 65536 the positions wrap and spill into the value bits: wrong counts.
#include <cstdint>
#include <vector>

#include "kernel.h"

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  std::vector<uint64_t> a(n), b(n);
  for (long i = 0; i < n; ++i) {
    counts[i] = 0;
    const uint64_t v = static_cast<uint32_t>(values[i]) ^ 0x80000000u;
    a[i] = (v << 16) | static_cast<uint64_t>(i & 0xffff);  // "n always fits 16 bits"
  }
  for (long width = 1; width < n; width *= 2) {
    for (long lo = 0; lo < n; lo += 2 * width) {
      const long mid = lo + width < n ? lo + width : n;
      const long hi = lo + 2 * width < n ? lo + 2 * width : n;
      long i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if ((a[j] >> 16) < (a[i] >> 16)) {
          b[k++] = a[j++];
        } else {
          counts[a[i] & 0xffff] += static_cast<int32_t>(j - mid);
          b[k++] = a[i++];
        }
      }
      while (i < mid) {
        counts[a[i] & 0xffff] += static_cast<int32_t>(j - mid);
        b[k++] = a[i++];
      }
      while (j < hi) b[k++] = a[j++];
    }
    a.swap(b);
  }
}
