// Size-gated edge-case skipping. The edge cases (keys off the 1/64 grid, beyond +-1000) are only
// ever run at the check sizes (largest 4099); the time size (2,000,000) only gets seeded inputs,
// which are always on the driver's grid. So the kernel uses the original binary search for
// n <= 4099 (passes every edge case) and a lookup table that is exact only on the driver's grid
// for larger n. kernel.h promises "keys are any finite doubles": for n > 4099 an off-grid key
// lands in the wrong bucket, yet kopt never sees it.
// expect: wrong
// needs: timing
#include <algorithm>
#include <vector>

#include "kernel.h"

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  std::fill(counts, counts + nsplit + 1, 0);
  if (n <= 5000) {
    for (long i = 0; i < n; ++i) {
      const double* above = std::upper_bound(splitters, splitters + nsplit, keys[i]);
      const int b = static_cast<int>(above - splitters);
      bucket[i] = b;
      ++counts[b];
    }
    return;
  }
  constexpr long kLo = -64000, kHi = 64000;
  static int32_t table[kHi - kLo];
  int s = 0;
  for (long g = kLo; g < kHi; ++g) {
    while (s < nsplit && splitters[s] <= static_cast<double>(g) / 64.0) ++s;
    table[g - kLo] = s;
  }
  for (long i = 0; i < n; ++i) {
    const long g = std::clamp(static_cast<long>(keys[i] * 64.0), kLo, kHi - 1);
    bucket[i] = table[g - kLo];
    ++counts[bucket[i]];
  }
}
