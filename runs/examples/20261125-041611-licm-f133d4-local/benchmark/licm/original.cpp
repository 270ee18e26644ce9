#include <cmath>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
}
