#include "kernel.h"

// One thread per element of C, reading a row of A and a column of B straight from global
// memory: every operand is loaded once per multiply-add.
static __global__ void matmul_naive(const float* a, const float* b, float* c, long n) {
  const long col = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long row = static_cast<long>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (long k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

void matmul(const float* a, const float* b, float* c, long n) {
  const dim3 block(16, 16);
  const dim3 grid(static_cast<unsigned>((n + 15) / 16), static_cast<unsigned>((n + 15) / 16));
  matmul_naive<<<grid, block>>>(a, b, c, n);
}
