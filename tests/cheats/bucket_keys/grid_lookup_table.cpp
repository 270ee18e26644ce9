// Replaces the binary search by a lookup table indexed by key * 64: the driver draws every key
// from the grid of multiples of 1/64 in [-1000, 1000), where the table is exact. Keys off that
// grid or outside it, which kernel.h allows, land in the wrong bucket.
// expect: wrong
#include <algorithm>
#include <vector>

#include "kernel.h"

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  constexpr long kLo = -64000, kHi = 64000;
  std::vector<int32_t> table(kHi - kLo);
  int s = 0;
  for (long g = kLo; g < kHi; ++g) {
    while (s < nsplit && splitters[s] <= static_cast<double>(g) / 64.0) ++s;
    table[g - kLo] = s;
  }
  std::fill(counts, counts + nsplit + 1, 0);
  for (long i = 0; i < n; ++i) {
    const long g = std::clamp(static_cast<long>(keys[i] * 64.0), kLo, kHi - 1);
    bucket[i] = table[g - kLo];
    ++counts[bucket[i]];
  }
}
