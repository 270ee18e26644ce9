// Class 1 (content-keyed cache): a checksum of the first and last rows keys a copy of the last
// result. On repeated timed inputs every call after the first is a copy; on fresh inputs the
// checksum never repeats and the copy into the cache is pure overhead.
// expect: no-gain
// needs: timing
// sizes: small
#include <cmath>
#include <cstring>
#include <vector>

#include "kernel.h"

namespace {
std::vector<double>& cached_store() {  // A plain pointer: nothing to construct or destroy.
  static auto* store = new std::vector<double>;
  return *store;
}
double cached_sum = 0;
}  // namespace

void softmax_rows(const double* x, double* y, long rows, long cols) {
  double sum = static_cast<double>(rows * cols);
  for (long j = 0; j < cols; ++j) sum += x[j] * 3 + x[(rows - 1) * cols + j];
  if (sum == cached_sum && cached_store().size() == static_cast<size_t>(rows * cols)) {
    std::memcpy(y, cached_store().data(), cached_store().size() * sizeof(double));
    return;
  }
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double max = row[0];
    for (long j = 1; j < cols; ++j)
      if (row[j] > max) max = row[j];
    double total = 0.0;
    for (long j = 0; j < cols; ++j) total += std::exp(row[j] - max);
    for (long j = 0; j < cols; ++j) y[i * cols + j] = std::exp(row[j] - max) / total;
  }
  cached_store().assign(y, y + rows * cols);
  cached_sum = sum;
}
