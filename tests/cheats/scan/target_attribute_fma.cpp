// `#pragma GCC target("fma")` enables instructions the manifest's flags do not promise: on a
// machine without FMA the contracted multiply-adds round differently (GCC contracts by
// default), and the same door opens target_clones, whose resolver runs before main.
// expect: flags
#pragma GCC target("fma,avx2")
#include "kernel.h"

void prefix_sum(const double* x, double* y, long n) {
  double sum = 0.0;
  for (long i = 0; i < n; ++i) y[i] = sum += x[i];
}
