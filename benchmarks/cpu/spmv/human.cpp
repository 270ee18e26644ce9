#include "kernel.h"

// Rows are handed out in chunks as threads become free: the hub rows at the top no longer land on
// one thread, and a thread slowed by anything else simply takes fewer chunks. Each row is still
// summed in order.
void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
#pragma omp parallel for schedule(dynamic, 512)
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    const int64_t k0 = row_ptr[i], k1 = row_ptr[i + 1];
    for (int64_t k = k0; k < k1; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}
