#include "kernel.h"

// Threads along x take consecutive columns, so loads and stores are coalesced. A block stages
// a 32 x 32 tile with its one-point halo in shared memory, so each input is read from global
// memory about once; 32 x 8 threads compute four rows each.
constexpr int kWidth = 32;
constexpr int kThreadRows = 8;
constexpr int kHeight = 32;

static __global__ void __launch_bounds__(kWidth* kThreadRows)
    stencil_tiled(const float* in, float* out, long n, float c, float w) {
  __shared__ float tile[kHeight + 2][kWidth + 2];
  const long row0 = static_cast<long>(blockIdx.y) * kHeight;
  const long col0 = static_cast<long>(blockIdx.x) * kWidth;
  for (int r = threadIdx.y; r < kHeight + 2; r += kThreadRows) {
    for (int q = threadIdx.x; q < kWidth + 2; q += kWidth) {
      const long i = row0 - 1 + r, j = col0 - 1 + q;
      tile[r][q] = (i >= 0 && i < n && j >= 0 && j < n) ? in[i * n + j] : 0.0f;
    }
  }
  __syncthreads();
  const int q = threadIdx.x + 1;
  const long j = col0 + threadIdx.x;
  for (int r = threadIdx.y + 1; r <= kHeight; r += kThreadRows) {
    const long i = row0 + r - 1;
    if (i >= n || j >= n) continue;
    if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
      out[i * n + j] = tile[r][q];
    } else {
      out[i * n + j] =
          c * tile[r][q] + w * (tile[r - 1][q] + tile[r + 1][q] + tile[r][q - 1] + tile[r][q + 1]);
    }
  }
}

void stencil5(const float* in, float* out, long n, float c, float w) {
  const dim3 block(kWidth, kThreadRows);
  const dim3 grid(static_cast<unsigned>((n + kWidth - 1) / kWidth),
                  static_cast<unsigned>((n + kHeight - 1) / kHeight));
  stencil_tiled<<<grid, block>>>(in, out, n, c, w);
}
