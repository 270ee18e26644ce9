#include <algorithm>

#include "kernel.h"

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  std::fill(counts, counts + nsplit + 1, 0);
  for (long i = 0; i < n; ++i) {
    const double* above = std::upper_bound(splitters, splitters + nsplit, keys[i]);
    const int b = static_cast<int>(above - splitters);
    bucket[i] = b;
    ++counts[b];
  }
}
