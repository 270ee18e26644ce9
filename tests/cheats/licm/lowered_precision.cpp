// Computes in single precision where the benchmark requires double.
// expect: precision
#include <cmath>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  for (long i = 0; i < rows; ++i) {
    const float damping = std::exp(-static_cast<float>(decay) * static_cast<float>(i));
    for (long j = 0; j < cols; ++j) {
      const float scale = 1.0f / std::sqrt(static_cast<float>(var[j] + eps));
      y[i * cols + j] =
          damping * (static_cast<float>(x[i * cols + j]) - static_cast<float>(mean[j])) * scale;
    }
  }
}
