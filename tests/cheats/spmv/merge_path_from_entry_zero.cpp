// Class 6 (inputs kernel.h allows that no check drew): a merge-path SpMV that merges the row
// ends with the entry indices 0 .. nnz - 1, taking row_ptr[0] for 0; a window of rows of a
// larger matrix (row_ptr[0] > 0, which kernel.h's "entries of row i are k in [row_ptr[i],
// row_ptr[i+1])" allows) gives row 0 the entries before it. Accepted while every fill started
// at entry 0; caught by edge case 3. Written by red team 18 (2026-11-27).
// expect: wrong
// Merge-path CSR SpMV (Merrill & Garland 2016): every thread gets an equal share of
// rows + nonzeros, so the hub rows no longer serialize one thread. The merge is of the row end
// offsets (row_ptr + 1) with the nonzero indices 0 .. nnz-1, nnz = row_ptr[rows].
#include <omp.h>

#include <algorithm>
#include <vector>

#include "kernel.h"

namespace {
struct Coord {
  long row;
  int64_t k;
};

Coord merge_path_search(int64_t diagonal, const int64_t* row_end, long rows, int64_t nnz) {
  int64_t lo = std::max<int64_t>(diagonal - nnz, 0), hi = std::min<int64_t>(diagonal, rows);
  while (lo < hi) {
    const int64_t mid = (lo + hi) >> 1;
    if (row_end[mid] <= diagonal - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  return {static_cast<long>(std::min<int64_t>(lo, rows)), diagonal - lo};
}
}  // namespace

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  const int64_t nnz = row_ptr[rows];
  const int64_t* row_end = row_ptr + 1;
  const int most = omp_get_max_threads();
  std::vector<long> carry_row(most, rows);
  std::vector<double> carry_val(most, 0.0);
  int used = 1;
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
#pragma omp single
    used = threads;
    const int64_t total = rows + nnz, per = (total + threads - 1) / threads;
    const int64_t d0 = std::min(total, per * t), d1 = std::min(total, d0 + per);
    Coord c = merge_path_search(d0, row_end, rows, nnz);
    const Coord end = merge_path_search(d1, row_end, rows, nnz);
    double running = 0.0;
    for (; c.row < end.row; ++c.row) {
      for (; c.k < row_end[c.row]; ++c.k) running += val[c.k] * x[col[c.k]];
      y[c.row] = running;
      running = 0.0;
    }
    for (; c.k < end.k; ++c.k) running += val[c.k] * x[col[c.k]];
    carry_row[t] = end.row;
    carry_val[t] = running;
  }
  for (int t = 0; t < used; ++t)
    if (carry_row[t] < rows) y[carry_row[t]] += carry_val[t];
}
