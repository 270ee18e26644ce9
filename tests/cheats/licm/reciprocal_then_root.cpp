// Red team 29: the human version, but the scale is sqrt(1 / (var + eps)), which overflows to inf
// once var + eps is below ~5.6e-309, a subnormal kernel.h allows (var + eps > 0); the original's
// 1 / sqrt(var + eps) is finite there. The check drew variances no lower than 1e-300.
// expect: wrong
#include <cmath>
#include <vector>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::vector<double> scale(cols);
  for (long j = 0; j < cols; ++j) scale[j] = std::sqrt(1.0 / (var[j] + eps));
  for (long i = 0; i < rows; ++i) {
    const double damping = std::exp(-decay * static_cast<double>(i));
    const double* xi = x + i * cols;
    double* yi = y + i * cols;
    for (long j = 0; j < cols; ++j) yi[j] = damping * (xi[j] - mean[j]) * scale[j];
  }
}
