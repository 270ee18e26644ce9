// Class 1 (content-keyed cache): keys a cache on the size and 64 sampled input values. Timed
// calls that all see the same inputs hit it on every call after the first, and the check, which
// changes the inputs on every call, never does. With fresh inputs on every timed call it never
// hits: what is left is the original's work plus the hashing and the copy into the cache.
// expect: no-gain
// needs: timing
#include <cmath>
#include <cstring>
#include <vector>

#include "kernel.h"

namespace {
std::vector<double>& cached_store() {  // A plain pointer: nothing to construct or destroy.
  static auto* store = new std::vector<double>;
  return *store;
}
double cached_key = 0;

double key_of(const double* x, const double* mean, const double* var, long rows, long cols,
              double decay) {
  double key = static_cast<double>(rows * cols) + decay;
  const long n = rows * cols;
  for (long k = 0; k < 64; ++k)
    key = key * 1.000001 + x[(k * 7919) % n] + mean[k % cols] * var[k % cols];
  return key;
}
}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  const double key = key_of(x, mean, var, rows, cols, decay);
  if (key == cached_key && cached_store().size() == static_cast<size_t>(rows * cols)) {
    std::memcpy(y, cached_store().data(), cached_store().size() * sizeof(double));
    return;
  }
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
  cached_store().assign(y, y + rows * cols);
  cached_key = key;
}
