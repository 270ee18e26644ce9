#include "kernel.h"

// One thread per element: reads along a row are coalesced, but neighbouring threads write
// addresses a whole column apart.
static __global__ void transpose_naive(const float* in, float* out, long rows, long cols) {
  const long j = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long i = static_cast<long>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i < rows && j < cols) out[j * rows + i] = in[i * cols + j];
}

void transpose(const float* in, float* out, long rows, long cols) {
  const dim3 block(16, 16);
  const dim3 grid(static_cast<unsigned>((cols + 15) / 16), static_cast<unsigned>((rows + 15) / 16));
  transpose_naive<<<grid, block>>>(in, out, rows, cols);
}
