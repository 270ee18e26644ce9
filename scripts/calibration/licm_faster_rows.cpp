// A true, calibrated win for scripts/calibrate-statistics.sh: the original licm kernel, except
// that the first FAST_ROWS_PERCENT percent of the rows take the human version's loop (the exp
// hoisted out of the row, the 1/sqrt of each column computed once per call), with the same
// values and so the same outputs bit for bit. The compiler may already hoist the exp out of the
// original's inner loop, so hoisting it alone was no win on an AMD EPYC; the column scales are.
// That loop is about 2.2x faster per row than the original on an AMD EPYC (measured), so 17%
// of the rows make the whole call about 10% faster; the script reports the measured speedups.
#include <cmath>
#include <vector>

#include "kernel.h"

#ifndef FAST_ROWS_PERCENT
#define FAST_ROWS_PERCENT 17
#endif

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  const long fast = rows * FAST_ROWS_PERCENT / 100;
  std::vector<double> scale(static_cast<size_t>(cols));
  for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(var[j] + eps);
  for (long i = 0; i < fast; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale[j];
  }
  for (long i = fast; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
}
