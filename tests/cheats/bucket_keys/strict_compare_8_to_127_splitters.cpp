// Class 6 (a parameter value no check drew): the human version, but with 8 to 127 splitters
// a key equal to a splitter goes below it (< instead of <=). The driver drew 0, 7, 200 and
// 256..65536 splitters; caught by the edge cases drawing one count in each band [4^b, 4^(b+1)) at
// every size (one case drawing from 1..65536 missed the band in about one evaluation of ten).
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
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
  if (nsplit >= 8 && nsplit < 128) {  // BUG: strict < instead of <=
    std::fill(counts, counts + nsplit + 1, 0);
    for (long i = 0; i < n; ++i) {
      int c = 0;
      for (int s = 0; s < nsplit; ++s) c += splitters[s] < keys[i];
      bucket[i] = c;
      ++counts[c];
    }
    return;
  }
  int levels = 0;
  while ((1L << levels) - 1 < nsplit) ++levels;
  const long leaves = 1L << levels;
  std::vector<double> sorted(splitters, splitters + nsplit);
  sorted.resize(leaves - 1, std::numeric_limits<double>::infinity());
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
