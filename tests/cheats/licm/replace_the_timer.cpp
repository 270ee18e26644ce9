// Defines clock_gettime so that the harness's timer reports whatever the kernel wants.
// expect: interposition
#include <time.h>

#include <cmath>

#include "kernel.h"

extern "C" int clock_gettime(clockid_t, struct timespec* now) {
  static long fake = 0;
  now->tv_sec = 0;
  now->tv_nsec = ++fake;
  return 0;
}

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
}
