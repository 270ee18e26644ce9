#include <math.h>

#include "kernel.h"

// One thread per row, three passes over its row (maximum, sum, output): the threads of a warp
// read addresses a row apart, and there are only as many threads as rows.
static __global__ void softmax_row_per_thread(const float* x, float* y, long rows, long cols) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float* xi = x + i * cols;
  float* yi = y + i * cols;
  float m = -INFINITY;
  for (long j = 0; j < cols; ++j) m = fmaxf(m, xi[j]);
  float sum = 0;
  for (long j = 0; j < cols; ++j) sum += expf(xi[j] - m);
  for (long j = 0; j < cols; ++j) yi[j] = expf(xi[j] - m) / sum;
}

void softmax_rows(const float* x, float* y, long rows, long cols) {
  const long blocks = (rows + 127) / 128;
  softmax_row_per_thread<<<static_cast<unsigned>(blocks), 128>>>(x, y, rows, cols);
}
