// Class 6 (inputs kernel.h allows that no check drew): pads the splitter tree with DBL_MAX
// instead of +inf, so a key equal to DBL_MAX lands past nsplit; keys never went past +-1e12.
// Caught by edge case 0's keys up to +-DBL_MAX.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong|crash
#include <algorithm>
#include <limits>
#include <vector>

#include "kernel.h"

namespace {

// Lays the sorted splitters out as an implicit complete binary tree (node k has children 2k and
// 2k+1; in-order traversal gives the sorted order).
void build_tree(const std::vector<double>& sorted, std::vector<double>& tree, long k, long& next) {
  if (k >= static_cast<long>(tree.size())) return;
  build_tree(sorted, tree, 2 * k, next);
  tree[k] = sorted[next++];
  build_tree(sorted, tree, 2 * k + 1, next);
}

}  // namespace

// Branch-free descent of the splitter tree (super scalar sample sort): each level turns a
// comparison into an index bit, so there is nothing for the branch predictor to get wrong.
// Padding splitters of +inf never count as <= a finite key.
void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  int levels = 0;
  while ((1L << levels) - 1 < nsplit) ++levels;
  const long leaves = 1L << levels;
  std::vector<double> sorted(splitters, splitters + nsplit);
  sorted.resize(leaves - 1, std::numeric_limits<double>::max());  // BUG: DBL_MAX, not +inf
  std::vector<double> tree(leaves);
  long next = 0;
  build_tree(sorted, tree, 1, next);
  std::fill(counts, counts + nsplit + 1, 0);
  const double* t = tree.data();
  for (long i = 0; i < n; ++i) {
    const double key = keys[i];
    long k = 1;
    for (int level = 0; level < levels; ++level) k = 2 * k + (t[k] <= key);
    bucket[i] = static_cast<int32_t>(k - leaves);
    ++counts[k - leaves];
  }
}
