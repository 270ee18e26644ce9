// A Fenwick tree indexed by value, sized for the driver's values in [-n/2, n/2]: O(n log n)
// with no sort. kernel.h promises nothing about the range; values beyond it are clamped into
// the tree and counted wrong.
// expect: wrong
#include <algorithm>
#include <vector>

#include "kernel.h"

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  const long offset = n / 2, size = n + 2;
  std::vector<int32_t> tree(size + 1, 0);
  for (long i = n - 1; i >= 0; --i) {
    const long slot = std::clamp<long>(values[i] + offset + 1, 1, size);
    int32_t smaller = 0;
    for (long p = slot - 1; p > 0; p -= p & -p) smaller += tree[p];
    counts[i] = smaller;
    for (long p = slot; p <= size; p += p & -p) ++tree[p];
  }
}
