// Class 6 (wrong where the fixed check sizes never look): the quadratic count, but the first
// count is one too many when n % 8 == 3, a remainder none of the manifest's sizes
// (1, 2, 7, 33, 257, 1000) or the time size has. Caught by the sizes each evaluation draws, one
// of each remainder modulo 8.
// expect: wrong
#include "kernel.h"

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  for (long i = 0; i < n; ++i) {
    int32_t below = 0;
    for (long j = i + 1; j < n; ++j) below += values[j] < values[i] ? 1 : 0;
    counts[i] = below;
  }
  if (n % 8 == 3) counts[0] += 1;
}
