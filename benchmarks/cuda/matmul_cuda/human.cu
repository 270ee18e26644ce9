#include "kernel.h"

// Two levels of tiling. A block computes a 128 x 128 tile of C, staging 128 x 8 slices of A
// (transposed) and 8 x 128 slices of B in shared memory; each of its 256 threads keeps an
// 8 x 8 sub-tile of C in registers and reads its operands as float4, so every shared-memory
// load feeds 16 multiply-adds. The thread's rows and columns are split in two groups of four,
// 64 apart, which keeps the float4 reads free of bank conflicts; the rows of the staged tiles
// are padded by four floats for the transposed stores.
constexpr int kTile = 128;
constexpr int kDepth = 8;
constexpr int kThreads = 256;
constexpr int kPad = 4;

static __global__ void __launch_bounds__(kThreads, 2)
    matmul_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                 long n) {
  __shared__ __align__(16) float as[kDepth][kTile + kPad];
  __shared__ __align__(16) float bs[kDepth][kTile + kPad];
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const long row0 = static_cast<long>(blockIdx.y) * kTile;
  const long col0 = static_cast<long>(blockIdx.x) * kTile;
  // The slices are loaded as four rows of A (32 apart) and four rows of B (2 apart) per
  // thread; the row and column checks are the same for every slice.
  const int ak = t % kDepth, ar = t / kDepth;
  const int bk = t / kTile, bc = t % kTile;
  const float* a_next = a + (row0 + ar) * n + ak;
  const float* b_next = b + bk * n + col0 + bc;
  bool a_row_inside[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) a_row_inside[q] = row0 + ar + 32 * q < n;
  const bool b_col_inside = col0 + bc < n;
  float acc[8][8] = {};

  for (long k0 = 0; k0 < n; k0 += kDepth, a_next += kDepth, b_next += kDepth * n) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      as[ak][ar + 32 * q] = (a_row_inside[q] && k0 + ak < n) ? a_next[32 * q * n] : 0.0f;
      bs[bk + 2 * q][bc] = (b_col_inside && k0 + bk + 2 * q < n) ? b_next[2 * q * n] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&as[k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&as[k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[k][64 + tx * 4]);
      const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
    if (row >= n) continue;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const long col = col0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4);
      if (col < n) c[row * n + col] = acc[i][j];
    }
  }
}

void matmul(const float* a, const float* b, float* c, long n) {
  const dim3 grid(static_cast<unsigned>((n + kTile - 1) / kTile),
                  static_cast<unsigned>((n + kTile - 1) / kTile));
  matmul_tiled<<<grid, kThreads>>>(a, b, c, n);
}
