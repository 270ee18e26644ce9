#include <cstdint>
#include <vector>

#include "kernel.h"

// O(n log n): replace each value by its rank among the distinct values, then sweep from the
// right with a Fenwick tree that counts the ranks seen so far. The ranks come from one sort of
// (value, position) pairs instead of a comparison sort plus a binary search per element (both
// full of unpredictable branches): an LSD radix sort on the 32-bit value, three stable
// counting passes of 11 bits over 64-bit pairs, then one scan that hands out dense ranks.

namespace {

constexpr int kDigitBits = 11;
constexpr uint64_t kDigitMask = (1u << kDigitBits) - 1;

// The value in the high half, biased so that unsigned order is signed order; the position in
// the low half.
std::vector<uint64_t> pairs(const int32_t* values, long n) {
  std::vector<uint64_t> keyed(n);
  for (long i = 0; i < n; ++i)
    keyed[i] = static_cast<uint64_t>(static_cast<uint32_t>(values[i]) ^ 0x80000000u) << 32 |
               static_cast<uint64_t>(i);
  return keyed;
}

// Stable sort by the high 32 bits.
void radix_sort_by_value(std::vector<uint64_t>& keyed) {
  std::vector<uint64_t> sorted(keyed.size());
  for (int shift = 32; shift < 64; shift += kDigitBits) {
    std::vector<long> start((1u << kDigitBits) + 1, 0);
    for (uint64_t key : keyed) ++start[((key >> shift) & kDigitMask) + 1];
    for (long d = 1; d < static_cast<long>(start.size()); ++d) start[d] += start[d - 1];
    for (uint64_t key : keyed) sorted[start[(key >> shift) & kDigitMask]++] = key;
    keyed.swap(sorted);
  }
}

// rank[i] = number of distinct values below values[i]; `distinct` receives their count.
std::vector<int32_t> dense_ranks(const int32_t* values, long n, long& distinct) {
  std::vector<uint64_t> keyed = pairs(values, n);
  radix_sort_by_value(keyed);
  std::vector<int32_t> rank(n);
  distinct = 0;
  for (long s = 0; s < n; ++s) {
    if (s > 0 && keyed[s] >> 32 != keyed[s - 1] >> 32) ++distinct;
    rank[keyed[s] & 0xffffffffu] = static_cast<int32_t>(distinct);
  }
  if (n > 0) ++distinct;
  return rank;
}

}  // namespace

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  long m = 0;
  const std::vector<int32_t> rank = dense_ranks(values, n, m);
  std::vector<int32_t> tree(m + 1, 0);
  for (long i = n - 1; i >= 0; --i) {
    int32_t below = 0;
    for (long k = rank[i]; k > 0; k -= k & -k) below += tree[k];
    counts[i] = below;
    for (long k = rank[i] + 1; k <= m; k += k & -k) ++tree[k];
  }
}
