#include <cuda_runtime.h>

#include "kernel.h"

// The textbook multi-level scan: every block scans 512 elements in shared memory with the
// Hillis-Steele doubling scheme (log2(512) synchronized steps, n log n additions) and writes
// its total; the totals are scanned the same way, recursively; then each block adds the
// total of the blocks before it to its elements.
constexpr int kBlock = 512;

static __global__ void scan_blocks(const unsigned* in, unsigned* out, unsigned* totals, long n) {
  __shared__ unsigned buffer[2][kBlock];
  const int t = threadIdx.x;
  const long i = static_cast<long>(blockIdx.x) * kBlock + t;
  int current = 0;
  buffer[current][t] = i < n ? in[i] : 0u;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset *= 2) {
    const unsigned v = buffer[current][t] + (t >= offset ? buffer[current][t - offset] : 0u);
    current ^= 1;
    buffer[current][t] = v;
    __syncthreads();
  }
  if (i < n) out[i] = buffer[current][t];
  if (t == kBlock - 1) totals[blockIdx.x] = buffer[current][t];
}

static __global__ void add_offsets(unsigned* out, const unsigned* scanned_totals, long n) {
  const long i = static_cast<long>(blockIdx.x) * kBlock + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}

static long blocks_for(long n) {
  return (n + kBlock - 1) / kBlock;
}

// `scratch` holds the block totals of this level and of every level below it.
static void scan_level(const unsigned* in, unsigned* out, long n, unsigned* scratch) {
  const long blocks = blocks_for(n);
  scan_blocks<<<static_cast<unsigned>(blocks), kBlock>>>(in, out, scratch, n);
  if (blocks == 1) return;
  scan_level(scratch, scratch, blocks, scratch + blocks);
  add_offsets<<<static_cast<unsigned>(blocks), kBlock>>>(out, scratch, n);
}

// Device memory for the block totals, kept and grown across calls.
static unsigned* scratch_for(long n) {
  static unsigned* scratch = nullptr;
  static long capacity = 0;
  long needed = 0;
  for (long level = n; level > 1; level = blocks_for(level)) needed += blocks_for(level);
  needed += 1;
  if (needed > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, needed * sizeof(unsigned));
    capacity = needed;
  }
  return scratch;
}

void inclusive_scan(const unsigned* in, unsigned* out, long n) {
  scan_level(in, out, n, scratch_for(n));
}
