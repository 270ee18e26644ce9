#include "kernel.h"

void count_smaller(const int32_t* values, long n, int32_t* counts) {
  for (long i = 0; i < n; ++i) {
    int32_t count = 0;
    for (long j = i + 1; j < n; ++j)
      if (values[j] < values[i]) ++count;
    counts[i] = count;
  }
}
