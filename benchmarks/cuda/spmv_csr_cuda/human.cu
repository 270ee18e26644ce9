#include "kernel.h"

// One warp per row ("vector CSR"): the lanes read consecutive entries of the row, so loads of
// columns and values are coalesced; x is read through the read-only cache; the lanes' partial
// sums are combined with shuffles.
constexpr int kBlock = 256;
constexpr int kRowsPerBlock = kBlock / 32;

static __global__ void __launch_bounds__(kBlock)
    spmv_warps(const int* __restrict__ row_start, const int* __restrict__ columns,
               const float* __restrict__ values, const float* __restrict__ x, float* __restrict__ y,
               long n) {
  const long row = static_cast<long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= n) return;
  const int begin = row_start[row], end = row_start[row + 1];
  float sum = 0;
  for (int k = begin + lane; k < end; k += 32) sum += values[k] * __ldg(&x[columns[k]]);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}

void spmv_csr(const int* row_start, const int* columns, const float* values, const float* x,
              float* y, long n) {
  const long blocks = (n + kRowsPerBlock - 1) / kRowsPerBlock;
  spmv_warps<<<static_cast<unsigned>(blocks), kBlock>>>(row_start, columns, values, x, y, n);
}
