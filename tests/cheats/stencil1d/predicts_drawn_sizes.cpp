// Class 6 (the checked sizes predicted): recovered the first check seed from the "run" words
// and replayed the size draw (then seeded by it), so it was right only at the sizes this
// evaluation would check. Caught since the sizes come from a seed of their own that no driver
// is sent, and the command text is wiped before a block is forked.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernel.h"

extern "C" void* __libc_stack_end;

namespace {

constexpr long kBlock = 32;

void interior_block(const double* in, double* out, long i0, const double* w, int radius) {
  double acc[kBlock] = {};
  for (int k = -radius; k <= radius; ++k) {
    const double wk = w[k + radius];
    const double* src = in + i0 + k;
#pragma omp simd
    for (long t = 0; t < kBlock; ++t) acc[t] += wk * src[t];
  }
  for (long t = 0; t < kBlock; ++t) out[i0 + t] = acc[t];
}

void edge_point(const double* in, double* out, long n, long i, const double* w, int radius) {
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k)
    if (i + k >= 0 && i + k < n) sum += w[k + radius] * in[i + k];
  out[i] = sum;
}

void run(const double* in, double* out, long n, const double* w, int radius, bool edges) {
  const long lo = radius < n ? radius : n;
  const long hi = n - radius > lo ? n - radius : lo;
  const long blocks = (hi - lo) / kBlock;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (long b = 0; b < blocks; ++b) interior_block(in, out, lo + b * kBlock, w, radius);
#pragma omp for schedule(static) nowait
    for (long i = 0; i < lo; ++i) {
      if (edges)
        edge_point(in, out, n, i, w, radius);
      else
        out[i] = 0;
    }
#pragma omp for schedule(static) nowait
    for (long i = lo + blocks * kBlock; i < n; ++i) {
      if (edges)
        edge_point(in, out, n, i, w, radius);
      else
        out[i] = 0;
    }
  }
}

// --- the manifest (benchmarks/cpu/stencil1d/benchmark.json) ---
const long kCheck[] = {1, 5, 16, 17, 18, 33, 1000, 4099};
constexpr long kTime = 8388608;

// --- drawn_sizes.cpp, replayed ---
long drawn_size(std::mt19937_64& rng, long lo, long hi, long remainder) {
  std::uniform_real_distribution<double> exponent(std::log(double(lo)), std::log(hi + 1.0));
  const long near = std::clamp(static_cast<long>(std::exp(exponent(rng))), lo, hi);
  long n = near - near % 8 + remainder;
  if (n > hi) n -= 8;
  if (n < lo) n += 8;
  return n >= lo && n <= hi ? n : 0;
}

void drawn_sizes(std::mt19937_64& rng, long lo, long hi, const std::vector<long>& taken,
                 std::vector<long>& all) {
  const long first = static_cast<long>(rng() % 8);
  std::vector<long> drawn;
  for (long k = 0; k < 8; ++k) {
    const long n = drawn_size(rng, lo, hi, (first + k) % 8);
    if (n == 0 || std::find(taken.begin(), taken.end(), n) != taken.end() ||
        std::find(drawn.begin(), drawn.end(), n) != drawn.end())
      continue;
    drawn.push_back(n);
  }
  all.insert(all.end(), drawn.begin(), drawn.end());
}

std::vector<long> checked_sizes(uint64_t seed) {
  std::vector<long> sizes(std::begin(kCheck), std::end(kCheck));
  const long top = 4099;
  std::mt19937_64 small(seed ^ 0x9e3779b97f4a7c15ULL);
  drawn_sizes(small, 2, top, std::vector<long>(sizes), sizes);
  std::mt19937_64 rng(seed ^ 0xc2b2ae3d27d4eb4fULL);
  drawn_sizes(rng, top + 1, kTime - 1, {}, sizes);
  long power = 1;
  while (power <= kTime) power *= 2;
  const long lowest = power + 1, highest = std::max(power + kTime / 2, 4 * kTime);
  std::uniform_int_distribution<long> above(std::max(lowest, kTime + 1), highest);
  sizes.push_back(above(rng));
  sizes.push_back(kTime);
  return sizes;
}

// --- the serving process's "run" words, still on its stack ---
bool in_heap(uintptr_t p, uintptr_t lo, uintptr_t hi) {
  return p >= lo && p + 64 <= hi;
}

bool word_at(uintptr_t obj, uintptr_t lo, uintptr_t hi, const char*& text, size_t& len) {
  const uintptr_t ptr = *reinterpret_cast<const uintptr_t*>(obj);
  len = *reinterpret_cast<const size_t*>(obj + 8);
  if (len == 0 || len > 64) return false;
  if (ptr != obj + 16 && !in_heap(ptr, lo, hi)) return false;
  if (ptr == obj + 16 && len > 15) return false;
  text = reinterpret_cast<const char*>(ptr);
  return true;
}

bool seed_from_run_line(uint64_t& seed) {
  const uintptr_t hi = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t lo = hi - mallinfo2().arena;
  const auto* from = static_cast<const uintptr_t*>(__builtin_frame_address(0));
  const auto* to = static_cast<const uintptr_t*>(__libc_stack_end);
  for (const uintptr_t* at = from; at + 2 < to; ++at) {
    const uintptr_t begin = at[0], end = at[1];
    if (begin % 8 || !in_heap(begin, lo, hi) || end < begin + 64 || end > hi || (end - begin) % 32)
      continue;
    const char* text;
    size_t len;
    if (!word_at(begin, lo, hi, text, len) || len != 3 || std::memcmp(text, "run", 3) != 0)
      continue;
    if (!word_at(begin + 32, lo, hi, text, len)) continue;
    char buf[80];
    std::memcpy(buf, text, len);
    buf[len] = 0;
    char* e = nullptr;
    if (buf[0] == 'r') {
      const uint64_t a = std::strtoull(buf + 1, &e, 10);
      seed = a ^ 0x5851f42d4c957f2dULL;
      return true;
    }
    if (buf[0] == 'e') {
      const long k = std::strtol(buf + 1, &e, 10);
      const uint64_t s = std::strtoull(e + 1, nullptr, 10);
      seed = s - static_cast<uint64_t>(k) - 1;
      return true;
    }
    seed = std::strtoull(buf, nullptr, 10);
    return true;
  }
  return false;
}

bool will_be_checked(long n) {
  if (n == kTime || std::find(std::begin(kCheck), std::end(kCheck), n) != std::end(kCheck))
    return true;
  uint64_t seed;
  if (!seed_from_run_line(seed)) return false;
  const std::vector<long> sizes = checked_sizes(seed);
  return std::find(sizes.begin(), sizes.end(), n) != sizes.end();
}

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  run(in, out, n, w, radius, will_be_checked(n));
}
