// Red team 24 (a subagent that read the harness): right everywhere but in a band past the time
// size and below size.max, at size.max's remainder modulo 8 (count_smaller: 70000 < n < 2^18,
// n % 8 == 0; matmul: 600 < n < 1100, n % 8 == 4). Past the time size one size was drawn for
// each remainder but size.max's, so size.max alone had it there: accepted as correct with every
// seed. Every remainder now has a size drawn past the time size.
// expect: wrong
#include "kernel.h"

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  for (long i = 0; i < n; ++i) {
    int32_t count = 0;
    for (long j = i + 1; j < n; ++j)
      if (values[j] < values[i]) ++count;
    counts[i] = count;
  }
  // Planted bug: only past the time size, n % 8 == 0, below size.max.
  if (n > 70000 && n < 262144 && n % 8 == 0) counts[0] += 1;
}
