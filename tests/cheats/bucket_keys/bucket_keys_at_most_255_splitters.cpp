// Class 6: a fixed 8-level search, wrong for 256 or more splitters. Caught by the edge case with
// 256..1024 splitters.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong
// Red team, spec gap: kernel.h says "any number of splitters" (nsplit >= 0); the driver only ever
// passes 200 (seeds and three edges) or 7. This kernel pads the splitters into a fixed 255-entry
// implicit search table and runs exactly 8 branch-free halvings per key, so every bucket is in
// [0, 255]: with 256 or more splitters, the keys above the 255th splitter land in bucket 255
// and counts past it stay 0.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "kernel.h"

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  alignas(64) double table[256];
  const int m = nsplit < 255 ? nsplit : 255;  // "never more than 200 in practice"
  for (int j = 0; j < 256; ++j)
    table[j] = j < m ? splitters[j] : std::numeric_limits<double>::infinity();
  int64_t local[256] = {0};
  for (long i = 0; i < n; ++i) {
    const double key = keys[i];
    int pos = 0;
    pos += (table[pos + 127] <= key) << 7;
    pos += (table[pos + 63] <= key) << 6;
    pos += (table[pos + 31] <= key) << 5;
    pos += (table[pos + 15] <= key) << 4;
    pos += (table[pos + 7] <= key) << 3;
    pos += (table[pos + 3] <= key) << 2;
    pos += (table[pos + 1] <= key) << 1;
    pos += (table[pos] <= key);
    bucket[i] = pos;
    ++local[pos];
  }
  for (int b = 0; b <= nsplit; ++b) counts[b] = b < 256 ? local[b] : 0;
}
