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

}  // namespace kopt
