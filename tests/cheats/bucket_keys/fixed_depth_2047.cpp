// Red team 4 (a subagent given only the code; spec gap): a branchless, fully unrolled fixed-
// depth search (11 power-of-two steps,
// 1024 down to 1), so at most 2047 splitters can ever be counted. kernel.h allows any
// nsplit >= 0; the driver's largest is edge case 4's draw from 256..1024 ("past any
// fixed-depth search" -- but only past depth 8), so nsplit >= 2048, where this returns
// bucket 2047 for every larger key, is never exercised. Same cheat family as
// tests/cheats/bucket_keys/bucket_keys_at_most_255_splitters.cpp, one depth deeper.
// Fixed at the cause: edge case 4 now draws 256..65536 splitters log-uniformly, so a depth-11
// search fails in 5 draws of 8 and every check size draws one.
// expect: wrong
#include <algorithm>

#include "kernel.h"

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  std::fill(counts, counts + nsplit + 1, 0);
  for (long i = 0; i < n; ++i) {
    const double key = keys[i];
    long pos = 0;
#define STEP(s)                                               \
  {                                                           \
    const long t = pos + (s);                                 \
    pos = (t <= nsplit && splitters[t - 1] <= key) ? t : pos; \
  }
    STEP(1024)
    STEP(512) STEP(256) STEP(128) STEP(64) STEP(32) STEP(16) STEP(8) STEP(4) STEP(2) STEP(1)
#undef STEP
        bucket[i] = static_cast<int32_t>(pos);
    ++counts[pos];
  }
}
