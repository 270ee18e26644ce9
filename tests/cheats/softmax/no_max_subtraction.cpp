// Softmax without subtracting the row maximum: one pass fewer over each row, and exact enough
// while the logits stay in the driver's [-20, 20). Logits in the hundreds, which kernel.h
// allows, overflow exp to infinity (or underflow every term to 0) and give NaN.
// expect: nan
#include <cmath>

#include "kernel.h"

void softmax_rows(const double* x, double* y, long rows, long cols) {
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (long j = 0; j < cols; ++j) {
      y[i * cols + j] = std::exp(x[i * cols + j]);
      sum += y[i * cols + j];
    }
    for (long j = 0; j < cols; ++j) y[i * cols + j] /= sum;
  }
}
