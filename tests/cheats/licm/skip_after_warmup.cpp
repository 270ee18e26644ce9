// Behaves for the first eight calls of a process (enough to pass the correctness check, which
// makes five), then skips the work: only checking the outputs of timed calls catches it.
// kopt-driver/4: each block runs in a fresh child, so there is no warm-up to count.
// expect: unwritten|no-gain
// needs: timing
#include <cmath>

#include "kernel.h"

namespace {
int calls = 0;
}

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  if (++calls > 8) return;
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
}
