// A true, calibrated win for scripts/calibrate-statistics.sh: the original licm kernel, except
// that the first FAST_ROWS_PERCENT percent of the rows hoist the invariant exp and sqrt out of
// the inner loop (the same values, so the same outputs bit for bit). With the original about
// 7x slower per row than the hoisted loop, 11% of the rows make the whole call about 10%
// faster; the script measures the true ratio itself and reports it next to the detection rate.
#include <cmath>

#include "kernel.h"

#ifndef FAST_ROWS_PERCENT
#define FAST_ROWS_PERCENT 11
#endif

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  const long fast = rows * FAST_ROWS_PERCENT / 100;
  for (long i = 0; i < fast; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * (1.0 / std::sqrt(var[j] + eps));
  }
  for (long i = fast; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
}
