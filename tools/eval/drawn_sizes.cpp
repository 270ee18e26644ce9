#include "tools/eval/drawn_sizes.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace kopt {

namespace {

// A size near a log-uniform draw from [2, top] with the given remainder modulo 8, inside
// [2, top]; 0 when [2, top] holds none.
long drawn_size(std::mt19937_64& rng, long top, long remainder) {
  std::uniform_real_distribution<double> exponent(std::log(2.0), std::log(top + 1.0));
  const long near = std::clamp(static_cast<long>(std::exp(exponent(rng))), 2L, top);
  long n = near - near % 8 + remainder;
  if (n > top) n -= 8;
  if (n < 2) n += 8;
  return n >= 2 && n <= top ? n : 0;
}

}  // namespace

std::vector<long> sizes_to_check(const Benchmark& bench, uint64_t seed) {
  std::vector<long> sizes = bench.check_sizes;
  if (!bench.draw_sizes || sizes.empty()) return sizes;
  const long top = *std::max_element(sizes.begin(), sizes.end());
  // Mixed so that the sizes do not follow the first check seed's own sequence of values.
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  const long first = static_cast<long>(rng() % 8);
  std::vector<long> drawn;
  for (long k = 0; k < kDrawnSizes; ++k) {
    const long n = drawn_size(rng, top, (first + k) % 8);
    if (n == 0 || std::find(sizes.begin(), sizes.end(), n) != sizes.end() ||
        std::find(drawn.begin(), drawn.end(), n) != drawn.end() || !bench.variables(n))
      continue;
    drawn.push_back(n);
  }
  std::sort(drawn.begin(), drawn.end());
  sizes.insert(sizes.end(), drawn.begin(), drawn.end());
  return sizes;
}

std::vector<LargeSize> large_sizes_to_check(const Benchmark& bench, uint64_t seed) {
  if (!bench.draw_sizes || bench.check_sizes.empty()) return {};
  const long top = *std::max_element(bench.check_sizes.begin(), bench.check_sizes.end());
  const long time = bench.time_size;
  std::mt19937_64 rng(seed ^ 0xc2b2ae3d27d4eb4fULL);  // Apart from the small sizes' draws.
  std::vector<LargeSize> sizes;
  if (time - top >= 2) {
    std::uniform_real_distribution<double> exponent(std::log(top + 1.0), std::log(double(time)));
    const long n = std::clamp(static_cast<long>(std::exp(exponent(rng))), top + 1, time - 1);
    if (bench.variables(n)) sizes.push_back({n, 2});
  }
  // Past the smallest power of two above the time size, so that every power-of-two limit a
  // kernel may have below it (16-bit or 17-bit indices, a table of 2^k) is crossed.
  long power = 1;
  while (power <= time && power < (1L << 60)) power *= 2;
  long lowest = power + 1, highest = std::max(lowest, 2 * time);
  if (bench.max_size > 0) {
    highest = std::min(highest, bench.max_size);
    lowest = std::min(lowest, highest);
  }
  if (highest > time) {
    std::uniform_int_distribution<long> above(std::max(lowest, time + 1), highest);
    const long n = above(rng);
    if (bench.variables(n)) sizes.push_back({n, 1});
  }
  return sizes;
}

}  // namespace kopt
