// Computes for the first eight calls of a process (the check makes five), then launches nothing:
// only checking the outputs of timed calls catches it.
// expect: unwritten
// needs: timing
#include "kernel.h"

static __global__ void triad_once(float* a, const float* b, const float* c, float s, long n) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

void triad(float* a, const float* b, const float* c, float s, long n) {
  static int calls = 0;
  if (++calls > 8) return;
  triad_once<<<static_cast<unsigned>((n + 255) / 256), 256>>>(a, b, c, s, n);
}
