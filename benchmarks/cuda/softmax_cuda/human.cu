#include <math.h>

#include "kernel.h"

// One warp per row: the lanes read consecutive elements (float4 when rows are 16-byte
// aligned), each keeps a running maximum and a sum rescaled when the maximum grows ("online
// softmax"), so one pass finds both; shuffles merge the lanes, and a second pass (served
// mostly by the cache) writes the row.
constexpr int kBlock = 256;
constexpr int kRowsPerBlock = kBlock / 32;

struct Running {
  float max = -INFINITY;
  float sum = 0;

  __device__ void add(float v) {
    if (v > max) {
      sum = sum * expf(max - v) + 1.0f;
      max = v;
    } else {
      sum += expf(v - max);
    }
  }
  __device__ void merge(Running other) {
    const float m = fmaxf(max, other.max);
    if (m == -INFINITY) return;
    sum = sum * expf(max - m) + other.sum * expf(other.max - m);
    max = m;
  }
};

static __global__ void __launch_bounds__(kBlock)
    softmax_row_per_warp(const float* x, float* y, long rows, long cols) {
  const long i = static_cast<long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (i >= rows) return;
  const float* xi = x + i * cols;
  float* yi = y + i * cols;
  const bool vector = cols % 4 == 0;
  Running r;
  if (vector) {
    for (long q = lane; q < cols / 4; q += 32) {
      const float4 v = reinterpret_cast<const float4*>(xi)[q];
      r.add(v.x);
      r.add(v.y);
      r.add(v.z);
      r.add(v.w);
    }
  } else {
    for (long j = lane; j < cols; j += 32) r.add(xi[j]);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    Running other;
    other.max = __shfl_xor_sync(0xffffffffu, r.max, offset);
    other.sum = __shfl_xor_sync(0xffffffffu, r.sum, offset);
    r.merge(other);
  }
  const float m = r.max, s = r.sum;
  if (vector) {
    for (long q = lane; q < cols / 4; q += 32) {
      const float4 v = reinterpret_cast<const float4*>(xi)[q];
      reinterpret_cast<float4*>(yi)[q] =
          make_float4(expf(v.x - m) / s, expf(v.y - m) / s, expf(v.z - m) / s, expf(v.w - m) / s);
    }
  } else {
    for (long j = lane; j < cols; j += 32) yi[j] = expf(xi[j] - m) / s;
  }
}

void softmax_rows(const float* x, float* y, long rows, long cols) {
  const long blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  softmax_row_per_warp<<<static_cast<unsigned>(blocks), kBlock>>>(x, y, rows, cols);
}
