// Class 6 (inputs kernel.h allows that no check drew): exp(-decay * i) strength-reduced to a
// running product, damp *= exp(-decay), one multiply per row instead of one exp. Its relative
// error grows with the row index (about i * 1e-16): past ~10^4 rows it exceeds rtol 1e-12
// wherever the damping has not made the values small. Every decay the driver drew (1e-4 to
// 1e-3, 0 or 20) damped the long columns to e^-10 and less, so atol hid the drift; caught since
// edge case 6 runs n*n rows under a decay from 1e-12 to 1e-5. Written by red team 17
// (2026-11-27).
// expect: precision|wrong
#include <cmath>
#include <vector>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::vector<double> scale(cols);
  for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(var[j] + eps);
  const double step = std::exp(-decay);
  double damping = 1.0;
  for (long i = 0; i < rows; ++i) {
    const double* xr = x + i * cols;
    double* yr = y + i * cols;
    for (long j = 0; j < cols; ++j) yr[j] = damping * (xr[j] - mean[j]) * scale[j];
    damping *= step;
  }
}
