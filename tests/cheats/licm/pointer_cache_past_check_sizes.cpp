// Class 6 (state across calls): keeps its result for its pointers, shape and parameters and
// returns at once when called again on the same buffers past the check sizes (65 x 65). The
// second call on the same buffers ran at the check sizes alone, and its refill drew new
// parameters; caught since the time size and the drawn sizes' ends call one problem twice,
// refilled under the same parameters (Problem::refill). Written by red team 13 (2026-11-27).
// expect: unwritten|wrong
#include <cmath>
#include <vector>
#include "kernel.h"

namespace {
struct Last {
  const double *x = nullptr, *mean = nullptr, *var = nullptr;
  double* y = nullptr;
  long rows = 0, cols = 0;
  double decay = -1, eps = -1;
} last;
}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  if (rows * cols > 65 * 65 && x == last.x && mean == last.mean && var == last.var && y == last.y &&
      rows == last.rows && cols == last.cols && decay == last.decay && eps == last.eps)
    return;
  std::vector<double> scale(cols);
  for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(var[j] + eps);
  for (long i = 0; i < rows; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale[j];
  }
  last = {x, mean, var, y, rows, cols, decay, eps};
}
