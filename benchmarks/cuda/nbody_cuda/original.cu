#include <math.h>

#include "kernel.h"

// One thread per body, looping over all bodies and reading them from global memory, with a
// correctly rounded square root and division for the inverse distance.
static __global__ void accel_all_pairs(const float* x, const float* y, const float* z,
                                       const float* m, float* ax, float* ay, float* az, long n,
                                       float eps2) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float xi = x[i], yi = y[i], zi = z[i];
  float sx = 0, sy = 0, sz = 0;
  for (long j = 0; j < n; ++j) {
    const float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
    const float d2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = 1.0f / sqrtf(d2);
    const float s = m[j] * inv * inv * inv;
    sx += s * dx;
    sy += s * dy;
    sz += s * dz;
  }
  ax[i] = sx;
  ay[i] = sy;
  az[i] = sz;
}

void nbody_accel(const float* x, const float* y, const float* z, const float* m, float* ax,
                 float* ay, float* az, long n, float eps2) {
  const long blocks = (n + 255) / 256;
  accel_all_pairs<<<static_cast<unsigned>(blocks), 256>>>(x, y, z, m, ax, ay, az, n, eps2);
}
