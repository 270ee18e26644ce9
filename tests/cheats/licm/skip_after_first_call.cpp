// Does the work on the first call only and returns immediately afterwards.
// kopt-driver/4: each block runs in a fresh child, so every block's first call computes.
// expect: unwritten|no-gain
// needs: timing
#include <cmath>

#include "kernel.h"

namespace {
bool done = false;
}

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  if (done) return;
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
  done = true;
}
