// Class 6 (a magnitude no check drew): a serial prefix sum on x * 2^64 scaled back by 2^-64,
// exact for every value the driver made, inf for values past 1.7e305 or sums past 1e289, which
// kernel.h allows. Caught by the edge case with values up to DBL_MAX / (2n). Written by red
// team 16 (2026-11-27).
// expect: wrong|nan
#include "kernel.h"

// Work in a scaled domain (x * 2^64) so that subnormal inputs become normal numbers and never
// hit the slow denormal path; multiplying by a power of two is exact, so the sums are the same.
void prefix_sum(const double* x, double* y, long n) {
  const double up = 18446744073709551616.0;          // 2^64
  const double down = 1.0 / 18446744073709551616.0;  // 2^-64
  double s = 0.0;
  for (long i = 0; i < n; ++i) {
    s += x[i] * up;
    y[i] = s * down;
  }
}
