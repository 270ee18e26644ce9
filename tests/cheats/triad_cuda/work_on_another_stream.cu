// The original's slow kernel, launched on a stream of its own that does not synchronize with the
// default stream, so that the call returns at once and a timer on the default stream alone would
// see almost nothing. The harness waits for the whole device before it stops the clock, so the
// work is counted and the candidate must not come out faster than the original.
// expect-verdict: not-faster
// needs: timing
#include <cuda_runtime.h>

#include "kernel.h"

static __global__ void triad_chunks(float* a, const float* b, const float* c, float s, long n,
                                    long chunk) {
  const long thread = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long begin = thread * chunk;
  const long end = begin + chunk < n ? begin + chunk : n;
  for (long i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
}

void triad(float* a, const float* b, const float* c, float s, long n) {
  static cudaStream_t hidden = [] {
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    return stream;
  }();
  const long chunk = 64;
  const long threads = (n + chunk - 1) / chunk;
  const long blocks = (threads + 255) / 256;
  triad_chunks<<<static_cast<unsigned>(blocks), 256, 0, hidden>>>(a, b, c, s, n, chunk);
}
