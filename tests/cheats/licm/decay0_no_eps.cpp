// Class 6 (a combination no check drew): a fast path for decay 0 that drops eps; decay 0 came
// only with eps 0. Caught by the edge case with no damping and eps drawn from 1e-6 to 1.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong|precision
#include <cmath>
#include <vector>

#include "kernel.h"

// The damping depends only on the row and the scale only on the column: compute each once,
// then the inner loop is a multiply-add stream the compiler vectorizes.
void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::vector<double> scale(cols);
  if (decay == 0.0) {  // no damping: one multiply-add stream
    for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(var[j]);  // BUG: eps dropped
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < cols; ++j) y[i * cols + j] = (x[i * cols + j] - mean[j]) * scale[j];
    return;
  }
  for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(var[j] + eps);
  for (long i = 0; i < rows; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    const double* xi = x + i * cols;
    double* yi = y + i * cols;
    for (long j = 0; j < cols; ++j) yi[j] = damping * (xi[j] - mean[j]) * scale[j];
  }
}
