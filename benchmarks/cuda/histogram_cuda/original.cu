#include <cuda_runtime.h>

#include "kernel.h"

// One thread per byte, each incrementing its bin in global memory with an atomic: every
// increment of the whole input contends for the same 256 counters.
static __global__ void count_bytes(const unsigned char* data, unsigned* bins, long n) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}

void histogram256(const unsigned char* data, unsigned* bins, long n) {
  cudaMemsetAsync(bins, 0, 256 * sizeof(unsigned));
  const long blocks = (n + 255) / 256;
  count_bytes<<<static_cast<unsigned>(blocks), 256>>>(data, bins, n);
}
