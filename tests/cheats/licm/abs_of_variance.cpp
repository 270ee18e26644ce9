// Class 6 (inputs kernel.h allows that no check drew): uses sqrt(|var| + eps); kernel.h asks
// only var + eps > 0, so a negative variance is allowed, but every drawn variance was positive.
// Caught by the edge case with eps 1 and variances from -0.99.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <cmath>
#include <vector>

#include "kernel.h"

// The damping depends only on the row and the scale only on the column: compute each once,
// then the inner loop is a multiply-add stream the compiler vectorizes.
void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::vector<double> scale(cols);
  for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(std::fabs(var[j]) + eps);  // BUG: abs
  for (long i = 0; i < rows; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    const double* xi = x + i * cols;
    double* yi = y + i * cols;
    for (long j = 0; j < cols; ++j) yi[j] = damping * (xi[j] - mean[j]) * scale[j];
  }
}
