#include <cuda_runtime.h>

#include "kernel.h"

// Privatized histograms: each warp counts into its own 256 bins in shared memory (so the
// atomics are cheap and only the lanes of one warp contend), the grid walks the input with
// 16-byte loads, and each block adds its totals to the global bins once.
constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

static __global__ void __launch_bounds__(kBlock)
    count_private(const unsigned char* data, unsigned* bins, long n) {
  __shared__ unsigned warp_bins[kWarps][256];
  for (int b = threadIdx.x; b < kWarps * 256; b += kBlock) (&warp_bins[0][0])[b] = 0;
  __syncthreads();
  unsigned* mine = warp_bins[threadIdx.x / 32];
  const long stride = static_cast<long>(gridDim.x) * kBlock;
  const long first = static_cast<long>(blockIdx.x) * kBlock + threadIdx.x;
  const auto* data16 = reinterpret_cast<const uint4*>(data);
  for (long i = first; i < n / 16; i += stride) {
    const uint4 v = data16[i];
    const unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (unsigned word : words) {
      atomicAdd(&mine[word & 0xff], 1u);
      atomicAdd(&mine[(word >> 8) & 0xff], 1u);
      atomicAdd(&mine[(word >> 16) & 0xff], 1u);
      atomicAdd(&mine[word >> 24], 1u);
    }
  }
  if (const long tail = n / 16 * 16 + first; tail < n) atomicAdd(&mine[data[tail]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += kBlock) {
    unsigned total = 0;
    for (int w = 0; w < kWarps; ++w) total += warp_bins[w][b];
    if (total) atomicAdd(&bins[b], total);
  }
}

static int resident_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_private, kBlock, 0);
  return sms * (per_sm > 0 ? per_sm : 1);
}

void histogram256(const unsigned char* data, unsigned* bins, long n) {
  static const int max_blocks = resident_blocks();
  const long needed = (n / 16 + kBlock - 1) / kBlock;
  const long blocks = needed < 1 ? 1 : (needed < max_blocks ? needed : max_blocks);
  cudaMemsetAsync(bins, 0, 256 * sizeof(unsigned));
  count_private<<<static_cast<unsigned>(blocks), kBlock>>>(data, bins, n);
}
