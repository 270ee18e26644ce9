// Computes correctly but also leaves a file outside its workspace.
// expect: file-access
#include <cmath>
#include <fstream>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::ofstream("/tmp/kopt-escaped") << "escaped\n";
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
}
