#include <omp.h>

#include <algorithm>

#include "kernel.h"

// Each thread takes a contiguous range of rows holding an equal share of the nonzeros (found by
// binary search in row_ptr), so the hub rows at the top of the matrix no longer land on one
// thread. Each row is still summed in order.
void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  const int64_t nnz = row_ptr[rows];
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    auto first_row = [&](int part) {
      if (part == threads) return rows;
      const int64_t target = nnz / threads * part + std::min<int64_t>(part, nnz % threads);
      return static_cast<long>(std::upper_bound(row_ptr, row_ptr + rows + 1, target) - row_ptr) - 1;
    };
    const long begin = t == 0 ? 0 : first_row(t);
    const long end = first_row(t + 1);
    for (long i = begin; i < end; ++i) {
      double sum = 0.0;
      const int64_t k0 = row_ptr[i], k1 = row_ptr[i + 1];
      for (int64_t k = k0; k < k1; ++k) sum += val[k] * x[col[k]];
      y[i] = sum;
    }
  }
}
