// `#pragma GCC optimize("Ofast")` turns on -ffast-math, which the manifest leaves off on
// purpose: exp is vectorized through libmvec and the sums reassociated. The results stay within
// the tolerance on the driver's inputs, so only the flags contract says no.
// expect: flags
#pragma GCC optimize("Ofast")
#include <cmath>

#include "kernel.h"

void softmax_rows(const double* x, double* y, long rows, long cols) {
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
