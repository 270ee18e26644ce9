#include <cuda_runtime.h>

#include "kernel.h"

// Single-pass scan with decoupled look-back (Merrill and Garland, 2016). Each block takes the
// next tile of 2048 elements in launch order, scans it in registers and with warp shuffles,
// publishes the tile's total, and finds the total of everything before it by reading the
// published states of its predecessors, 32 at a time, back to the nearest one that already
// knows its inclusive prefix. The input is read once and the output written once.
constexpr int kBlock = 256;
constexpr int kItems = 8;
constexpr long kTile = kBlock * kItems;
constexpr unsigned kFull = 0xffffffffu;

// A tile's state: the flag in the high word, the value in the low word, published atomically.
constexpr unsigned long long kAggregate = 1ull << 32;  // value: the tile's own total
constexpr unsigned long long kPrefix = 2ull << 32;     // value: the sum up to the tile's end

static __device__ unsigned warp_inclusive_scan(unsigned v, int lane) {
  for (int d = 1; d < 32; d *= 2) {
    const unsigned u = __shfl_up_sync(kFull, v, d);
    if (lane >= d) v += u;
  }
  return v;
}

static __device__ unsigned warp_sum(unsigned v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(kFull, v, d);
  return v;
}

// Sum of all tiles before `tile`, computed by warp 0; `tile` > 0.
static __device__ unsigned look_back(unsigned long long* status, long tile, int lane) {
  unsigned exclusive = 0;
  for (long newest = tile - 1;; newest -= 32) {
    const long j = newest - lane;
    unsigned long long state = kPrefix;
    if (j >= 0) {
      const volatile unsigned long long* slot = status + j;
      do state = *slot;
      while ((state >> 32) == 0);
    }
    const unsigned prefixes = __ballot_sync(kFull, (state & kPrefix) != 0);
    const unsigned value = static_cast<unsigned>(state);
    if (prefixes) {
      const int nearest = __ffs(prefixes) - 1;
      return exclusive + warp_sum(lane <= nearest ? value : 0u);
    }
    exclusive += warp_sum(value);
  }
}

static __global__ void __launch_bounds__(kBlock)
    scan_tiles(const unsigned* in, unsigned* out, long n, unsigned long long* status,
               unsigned* next_tile) {
  __shared__ unsigned warp_totals[kBlock / 32];
  __shared__ unsigned tile_index, tile_prefix;
  if (threadIdx.x == 0) tile_index = atomicAdd(next_tile, 1u);
  __syncthreads();
  const long tile = tile_index;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const long base = tile * kTile + static_cast<long>(threadIdx.x) * kItems;
  const bool whole = base + kItems <= n;

  unsigned items[kItems];
  if (whole) {
    const uint4 a = reinterpret_cast<const uint4*>(in + base)[0];
    const uint4 b = reinterpret_cast<const uint4*>(in + base)[1];
    const unsigned loaded[kItems] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
    for (int k = 0; k < kItems; ++k) items[k] = loaded[k];
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) items[k] = base + k < n ? in[base + k] : 0u;
  }
#pragma unroll
  for (int k = 1; k < kItems; ++k) items[k] += items[k - 1];
  const unsigned thread_total = items[kItems - 1];
  const unsigned warp_inclusive = warp_inclusive_scan(thread_total, lane);
  if (lane == 31) warp_totals[warp] = warp_inclusive;
  __syncthreads();
  unsigned before_warp = 0, aggregate = 0;
#pragma unroll
  for (int w = 0; w < kBlock / 32; ++w) {
    if (w < warp) before_warp += warp_totals[w];
    aggregate += warp_totals[w];
  }

  if (warp == 0) {
    unsigned exclusive = 0;
    if (tile == 0) {
      if (lane == 0) atomicExch(&status[0], kPrefix | aggregate);
    } else {
      if (lane == 0) atomicExch(&status[tile], kAggregate | aggregate);
      exclusive = look_back(status, tile, lane);
      if (lane == 0) atomicExch(&status[tile], kPrefix | (exclusive + aggregate));
    }
    if (lane == 0) tile_prefix = exclusive;
  }
  __syncthreads();
  const unsigned offset = tile_prefix + before_warp + warp_inclusive - thread_total;
#pragma unroll
  for (int k = 0; k < kItems; ++k) items[k] += offset;
  if (whole) {
    reinterpret_cast<uint4*>(out + base)[0] = make_uint4(items[0], items[1], items[2], items[3]);
    reinterpret_cast<uint4*>(out + base)[1] = make_uint4(items[4], items[5], items[6], items[7]);
  } else {
    for (int k = 0; k < kItems; ++k)
      if (base + k < n) out[base + k] = items[k];
  }
}

// Device memory for the tile states and the tile counter, kept and grown across calls.
static unsigned long long* scratch_for(long tiles) {
  static unsigned long long* scratch = nullptr;
  static long capacity = 0;
  if (tiles + 1 > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, (tiles + 1) * sizeof(unsigned long long));
    capacity = tiles + 1;
  }
  return scratch;
}

void inclusive_scan(const unsigned* in, unsigned* out, long n) {
  const long tiles = (n + kTile - 1) / kTile;
  unsigned long long* scratch = scratch_for(tiles);
  cudaMemsetAsync(scratch, 0, (tiles + 1) * sizeof(unsigned long long));
  auto* next_tile = reinterpret_cast<unsigned*>(scratch + tiles);
  scan_tiles<<<static_cast<unsigned>(tiles), kBlock>>>(in, out, n, scratch, next_tile);
}
