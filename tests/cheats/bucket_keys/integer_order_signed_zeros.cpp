// Red team 2 (a subagent that read the harness) (spec gap): keys and splitters mapped to order-
// preserving 64-bit integers, then a
// branch-free search on the integers, eight keys at a time. The map puts -0.0 below +0.0, which
// compare equal as doubles: wrong whenever a key is one zero and a splitter the other (keys = {-0.0},
// splitters = {+0.0}: bucket must be 1, this gives 0). The driver's fills only make +0.0 and its
// one edge case with -0.0 keys draws its splitters from those same keys, so no mix is ever seen.
// expect: wrong
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel.h"

namespace {
inline uint64_t order_key(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return (u >> 63) ? ~u : (u | 0x8000000000000000ULL);
}
}  // namespace

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  std::fill(counts, counts + nsplit + 1, 0);
  if (nsplit == 0) {
    for (long i = 0; i < n; ++i) bucket[i] = 0;
    counts[0] = n;
    return;
  }
  std::vector<uint64_t> s(nsplit);
  for (int j = 0; j < nsplit; ++j) s[j] = order_key(splitters[j]);
  const uint64_t* base0 = s.data();
  constexpr int kLanes = 8;
  long i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    uint64_t key[kLanes];
    const uint64_t* base[kLanes];
    for (int l = 0; l < kLanes; ++l) key[l] = order_key(keys[i + l]), base[l] = base0;
    long len = nsplit;
    while (len > 1) {
      const long half = len / 2;
      for (int l = 0; l < kLanes; ++l) base[l] = base[l][half - 1] <= key[l] ? base[l] + half : base[l];
      len -= half;
    }
    for (int l = 0; l < kLanes; ++l) {
      const int b = static_cast<int>(base[l] - base0) + (*base[l] <= key[l]);
      bucket[i + l] = b;
      ++counts[b];
    }
  }
  for (; i < n; ++i) {
    const uint64_t key = order_key(keys[i]);
    const uint64_t* base = base0;
    long len = nsplit;
    while (len > 1) {
      const long half = len / 2;
      base = base[half - 1] <= key ? base + half : base;
      len -= half;
    }
    const int b = static_cast<int>(base - base0) + (*base <= key);
    bucket[i] = b;
    ++counts[b];
  }
}
