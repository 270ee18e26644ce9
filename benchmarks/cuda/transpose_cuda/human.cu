#include "kernel.h"

// A 32 x 32 tile goes through shared memory: read along rows of `in`, written along rows of
// `out`, so both sides are coalesced. The extra column of the tile puts the elements of a
// tile column in different banks. 32 x 8 threads move four elements each.
constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

static __global__ void __launch_bounds__(kTile* kRowsPerPass)
    transpose_tiled(const float* in, float* out, long rows, long cols) {
  __shared__ float tile[kTile][kTile + 1];
  const long col0 = static_cast<long>(blockIdx.x) * kTile;
  const long row0 = static_cast<long>(blockIdx.y) * kTile;
  const int tx = threadIdx.x;
#pragma unroll
  for (int k = threadIdx.y; k < kTile; k += kRowsPerPass) {
    const long i = row0 + k, j = col0 + tx;
    if (i < rows && j < cols) tile[k][tx] = in[i * cols + j];
  }
  __syncthreads();
#pragma unroll
  for (int k = threadIdx.y; k < kTile; k += kRowsPerPass) {
    const long j = col0 + k, i = row0 + tx;
    if (i < rows && j < cols) out[j * rows + i] = tile[tx][k];
  }
}

void transpose(const float* in, float* out, long rows, long cols) {
  const dim3 block(kTile, kRowsPerPass);
  const dim3 grid(static_cast<unsigned>((cols + kTile - 1) / kTile),
                  static_cast<unsigned>((rows + kTile - 1) / kTile));
  transpose_tiled<<<grid, block>>>(in, out, rows, cols);
}
