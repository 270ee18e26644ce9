#include "kernel.h"

// Each thread owns a contiguous chunk of the arrays, as a CPU thread would: neighbouring threads
// of a warp touch addresses a chunk apart, so every load and store is uncoalesced.
static __global__ void triad_chunks(float* a, const float* b, const float* c, float s, long n,
                                    long chunk) {
  const long thread = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long begin = thread * chunk;
  const long end = begin + chunk < n ? begin + chunk : n;
  for (long i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
}

void triad(float* a, const float* b, const float* c, float s, long n) {
  const long chunk = 64;
  const long threads = (n + chunk - 1) / chunk;
  const int block = 256;
  const long blocks = (threads + block - 1) / block;
  triad_chunks<<<static_cast<unsigned>(blocks), block>>>(a, b, c, s, n, chunk);
}
