#include <iostream>

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

int main() {
  // Example usage
  double x[1000];
  double mean[1000];
  double var[1000];
  for (long i = 0; i < 1000; ++i) {
    x[i] = static_cast<double>(i);
    mean[i] = static_cast<double>(i);
    var[i] = static_cast<double>(i);
  }

  double y[1000];
  standardize(x, mean, var, y, 1000, 1000, 0.0, 0.0);

  // Output the results
  for (long i = 0; i < 1000; ++i) {
    std::cout << "y[" << i << "] = " << y[i] << std::endl;
  }

  return 0;
}
