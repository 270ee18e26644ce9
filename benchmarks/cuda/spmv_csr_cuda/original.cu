#include "kernel.h"

// One thread per row: each thread walks its own row, so the threads of a warp read entries
// that lie a row apart, and rows of different lengths leave lanes idle.
static __global__ void spmv_rows(const int* row_start, const int* columns, const float* values,
                                 const float* x, float* y, long n) {
  const long row = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= n) return;
  float sum = 0;
  for (int k = row_start[row]; k < row_start[row + 1]; ++k) sum += values[k] * x[columns[k]];
  y[row] = sum;
}

void spmv_csr(const int* row_start, const int* columns, const float* values, const float* x,
              float* y, long n) {
  const long blocks = (n + 255) / 256;
  spmv_rows<<<static_cast<unsigned>(blocks), 256>>>(row_start, columns, values, x, y, n);
}
