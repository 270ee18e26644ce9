// Computes the triad once per input buffer, keeps a device copy of the result, and on later calls
// with the same buffer copies that copy back instead of computing, whatever the input holds now.
// expect: cache
#include <cuda_runtime.h>

#include "kernel.h"

static __global__ void triad_once(float* a, const float* b, const float* c, float s, long n) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

void triad(float* a, const float* b, const float* c, float s, long n) {
  static const float* seen = nullptr;
  static long seen_n = 0;
  static float* saved = nullptr;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  if (b == seen && n == seen_n) {
    cudaMemcpyAsync(a, saved, bytes, cudaMemcpyDeviceToDevice);
    return;
  }
  triad_once<<<static_cast<unsigned>((n + 255) / 256), 256>>>(a, b, c, s, n);
  cudaFree(saved);
  cudaMalloc(&saved, bytes);
  cudaMemcpyAsync(saved, a, bytes, cudaMemcpyDeviceToDevice);
  seen = b;
  seen_n = n;
}
