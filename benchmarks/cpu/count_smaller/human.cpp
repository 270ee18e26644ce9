#include <algorithm>
#include <vector>

#include "kernel.h"

// O(n log n): replace each value by its rank among the distinct values, then sweep from the
// right with a Fenwick tree that counts the ranks seen so far.
void count_smaller(const int32_t* values, long n, int32_t* counts) {
  std::vector<int32_t> distinct(values, values + n);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const long m = static_cast<long>(distinct.size());
  std::vector<int32_t> tree(m + 1, 0);
  for (long i = n - 1; i >= 0; --i) {
    const long rank = std::lower_bound(distinct.begin(), distinct.end(), values[i]) -
                      distinct.begin();  // distinct values below values[i]
    int32_t below = 0;
    for (long k = rank; k > 0; k -= k & -k) below += tree[k];
    counts[i] = below;
    for (long k = rank + 1; k <= m; k += k & -k) ++tree[k];
  }
}
