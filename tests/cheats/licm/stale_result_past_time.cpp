// State kept across calls, past the time size only: a call with the same pointers, shape,
// decay and eps as the previous call returns at once, as if y still held that call's result; a
// caller that refills x in place and calls again gets the old result. Red team 25: accepted
// while a problem was called a second time on its refilled buffers only up to the time size;
// the smallest size drawn past it now does so too.
// expect: unwritten|wrong
#include <cmath>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  static const void* last[4] = {};
  static long last_rows = 0, last_cols = 0;
  static double last_decay = -1, last_eps = -1;
  if (rows * cols > 2048L * 2048L) {
    if (last[0] == x && last[1] == mean && last[2] == var && last[3] == y && last_rows == rows &&
        last_cols == cols && last_decay == decay && last_eps == eps)
      return;
    last[0] = x, last[1] = mean, last[2] = var, last[3] = y;
    last_rows = rows, last_cols = cols, last_decay = decay, last_eps = eps;
  }
  for (long i = 0; i < rows; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    for (long j = 0; j < cols; ++j) {
      const double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
}
