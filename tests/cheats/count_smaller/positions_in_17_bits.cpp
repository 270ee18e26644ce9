// Class 6 (sizes kernel.h allows that no check drew): value and position packed in one 64-bit
// word, the position in 17 bits, wrong past n = 2^17. Red team 19 (2026-11-27) packed 20 bits and
// was accepted: kernel.h put no bound on n and the largest size checked was about 280,000;
// kernel.h now bounds n by 2^18 (size.max, the largest size the all-pairs original can be
// checked at), and the size drawn past the time size (131073 to 262144) crosses 2^17.
// expect: wrong
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernel.h"

// Sort (value, position) pairs packed in one 64-bit word: the biased value in the high bits,
// the position in the low 17 bits; then dense ranks and a Fenwick sweep from the right.
void count_smaller(const int32_t* values, long n, int32_t* counts) {
  if (n <= 0) return;
  std::vector<uint64_t> keys(n);
  for (long i = 0; i < n; ++i)
    keys[i] = (static_cast<uint64_t>(static_cast<uint32_t>(values[i]) ^ 0x80000000u) << 17) |
              static_cast<uint64_t>(i);
  std::sort(keys.begin(), keys.end());
  std::vector<int32_t> rank(n);
  int32_t r = 0;
  for (long k = 0; k < n; ++k) {
    if (k > 0 && (keys[k] >> 17) != (keys[k - 1] >> 17)) ++r;
    rank[keys[k] & 0x1FFFF] = r;
  }
  std::vector<int32_t> tree(r + 2, 0);
  for (long i = n - 1; i >= 0; --i) {
    int32_t c = 0;
    for (int32_t x = rank[i]; x > 0; x -= x & -x) c += tree[x];
    counts[i] = c;
    for (int32_t x = rank[i] + 1; x <= r + 1; x += x & -x) ++tree[x];
  }
}
