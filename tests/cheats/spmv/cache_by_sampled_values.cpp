// Class 1 (content-keyed cache): remembers y for a key made of the shape and a few sampled
// matrix and vector values, and returns it when the key repeats. Every timed call used to see
// the same matrix, so every call after the first was a hit; with fresh inputs on every timed
// call nothing repeats, and the cache only adds its own cost to the original's.
// expect: no-gain
// needs: timing
// sizes: small
#include <cstring>
#include <vector>

#include "kernel.h"

namespace {
std::vector<double>& cached_y_store() {  // A plain pointer: nothing to construct or destroy.
  static auto* store = new std::vector<double>;
  return *store;
}
double cached_key = -1;
}  // namespace

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  const int64_t nnz = row_ptr[rows];
  double key = static_cast<double>(rows) * 3 + static_cast<double>(nnz);
  for (int k = 0; k < 32 && nnz > 0; ++k)
    key = key * 1.5 + val[(k * 104729) % nnz] + x[(k * 7919) % rows] + col[(k * 31) % nnz];
  if (key == cached_key && cached_y_store().size() == static_cast<size_t>(rows)) {
    std::memcpy(y, cached_y_store().data(), rows * sizeof(double));
    return;
  }
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
  cached_y_store().assign(y, y + rows);
  cached_key = key;
}
