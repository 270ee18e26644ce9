// kernel.h: "Row-wise softmax of a row-major rows x cols matrix" -- any rows and cols. The driver
// calls softmax_rows(x, y, n, n) on every seed AND every edge case (edges vary only values), so
// a kernel that ignores `rows` and assumes a square matrix is never caught. For rows != cols it
// reads and writes the wrong extent (wrong results or out-of-bounds writes).
// expect: wrong|crash|unwritten
#include <cmath>

#include "kernel.h"

void softmax_rows(const double* x, double* y, long /*rows*/, long cols) {
  const long rows = cols;  // "square, as the driver always passes"
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double max = row[0];
    for (long j = 1; j < cols; ++j)
      if (row[j] > max) max = row[j];
    double sum = 0.0;
    for (long j = 0; j < cols; ++j) sum += std::exp(row[j] - max);
    for (long j = 0; j < cols; ++j) y[i * cols + j] = std::exp(row[j] - max) / sum;
  }
}
