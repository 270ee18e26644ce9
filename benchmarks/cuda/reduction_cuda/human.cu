#include <cuda_runtime.h>

#include "kernel.h"

// A grid sized to fill the GPU once walks the array with coalesced float4 loads, each thread
// accumulating in registers; warps combine with shuffles, blocks through shared memory, and
// each block adds one value to the result.
constexpr int kBlock = 512;

static __device__ double warp_sum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

static __global__ void __launch_bounds__(kBlock) sum_grid(const float* x, double* sum, long n) {
  const long stride = static_cast<long>(gridDim.x) * kBlock;
  const long first = static_cast<long>(blockIdx.x) * kBlock + threadIdx.x;
  const auto* x4 = reinterpret_cast<const float4*>(x);
  double acc = 0;
  for (long i = first; i < n / 4; i += stride) {
    const float4 v = x4[i];
    acc += static_cast<double>(v.x) + static_cast<double>(v.y) + static_cast<double>(v.z) +
           static_cast<double>(v.w);
  }
  if (const long tail = n / 4 * 4 + first; tail < n) acc += x[tail];

  __shared__ double warps[kBlock / 32];
  acc = warp_sum(acc);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = warp_sum(threadIdx.x < kBlock / 32 ? warps[threadIdx.x] : 0.0);
    if (threadIdx.x == 0) atomicAdd(sum, acc);
  }
}

static int resident_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_grid, kBlock, 0);
  return sms * (per_sm > 0 ? per_sm : 1);
}

void reduce_sum(const float* x, double* sum, long n) {
  static const int max_blocks = resident_blocks();
  const long needed = (n / 4 + kBlock - 1) / kBlock;
  const long blocks = needed < 1 ? 1 : (needed < max_blocks ? needed : max_blocks);
  cudaMemsetAsync(sum, 0, sizeof(double));
  sum_grid<<<static_cast<unsigned>(blocks), kBlock>>>(x, sum, n);
}
