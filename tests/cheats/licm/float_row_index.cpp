// the human version, with the row index kept in a float counter for the damping
// (exact up to 2^24 rows). kernel.h allows rows * cols up to 4200^2 = 17,640,000 > 2^24, so a
// one-column matrix of more than 2^24 rows gets exp(-decay * i) at a rounded i (relative error
// up to decay). Only a one-column shape has that many rows, and only at n > 4096: the line-shaped
// edge cases run past the time size at one drawn size each (log-uniform in 2049..4199), and
// size.max runs the square shape.
// Caught by the edge cases at size.max.
// Found by a red team that read the harness (2026-11-28).
// expect: wrong|precision
#include <cmath>
#include <vector>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::vector<double> scale(cols);
  for (long j = 0; j < cols; ++j) scale[j] = 1.0 / std::sqrt(var[j] + eps);
  float row = 0.0f;  // BUG: exact only below 2^24
  for (long i = 0; i < rows; ++i, row += 1.0f) {
    const double damping = std::exp(-decay * static_cast<double>(row));
    const double* xi = x + i * cols;
    double* yi = y + i * cols;
    for (long j = 0; j < cols; ++j) yi[j] = damping * (xi[j] - mean[j]) * scale[j];
  }
}
