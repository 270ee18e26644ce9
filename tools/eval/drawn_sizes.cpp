#include "tools/eval/drawn_sizes.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace kopt {

namespace {

// A size near a log-uniform draw from [lo, hi] with the given remainder modulo 8, inside
// [lo, hi]; 0 when [lo, hi] holds none.
long drawn_size(std::mt19937_64& rng, long lo, long hi, long remainder) {
  std::uniform_real_distribution<double> exponent(std::log(double(lo)), std::log(hi + 1.0));
  const long near = std::clamp(static_cast<long>(std::exp(exponent(rng))), lo, hi);
  long n = near - near % 8 + remainder;
  if (n > hi) n -= 8;
  if (n < lo) n += 8;
  return n >= lo && n <= hi ? n : 0;
}

// Up to kDrawnSizes sizes in [lo, hi], one of each remainder modulo 8 from a drawn first one,
// leaving out those in `taken` and any the benchmark's named sizes refuse; in increasing order.
std::vector<long> drawn_sizes(const Benchmark& bench, std::mt19937_64& rng, long lo, long hi,
                              const std::vector<long>& taken) {
  const long first = static_cast<long>(rng() % 8);
  std::vector<long> drawn;
  for (long k = 0; k < kDrawnSizes; ++k) {
    const long n = drawn_size(rng, lo, hi, (first + k) % 8);
    if (n == 0 || std::find(taken.begin(), taken.end(), n) != taken.end() ||
        std::find(drawn.begin(), drawn.end(), n) != drawn.end() || !bench.variables(n))
      continue;
    drawn.push_back(n);
  }
  std::sort(drawn.begin(), drawn.end());
  return drawn;
}

// The largest n whose work (flops and bytes, as the manifest counts them) is at most four
// times the time size's, up to kLargestDrawnMultiple times the time size; twice the time size
// when the manifest's work cannot be evaluated.
long four_times_the_work(const Benchmark& bench) {
  const long time = bench.time_size;
  const auto within = [&](long n) {
    for (const std::string* expr : {&bench.flops, &bench.bytes}) {
      const auto at_time = bench.work_at(*expr, time), at_n = bench.work_at(*expr, n);
      if (!at_time || !at_n) return false;
      if (*at_time > 0 && *at_n > 4 * *at_time) return false;
    }
    return true;
  };
  if (!within(2 * time)) return 2 * time;
  return largest_size_where(2 * time, kLargestDrawnMultiple * time, within);
}

}  // namespace

long largest_checked_size(const Benchmark& bench) {
  const long time = bench.time_size;
  long power = 1;
  while (power <= time && power < (1L << 60)) power *= 2;
  // Never past what the check can afford either: a size.max `kopt new` found from a kernel's
  // limits may lie far past the work of a few timed calls.
  long highest = std::max(power + time / 2, four_times_the_work(bench));
  if (bench.max_size > 0) highest = std::min(highest, bench.max_size);
  return bench.variables(highest) ? highest : time;  // None past the time size if refused.
}

long largest_size_where(long lo, long hi, const std::function<bool(long)>& holds) {
  if (holds(hi)) return hi;
  while (hi - lo > 1) {  // holds(lo), !holds(hi)
    const long mid = lo + (hi - lo) / 2;
    (holds(mid) ? lo : hi) = mid;
  }
  return lo;
}

std::vector<long> sizes_to_check(const Benchmark& bench, uint64_t seed) {
  std::vector<long> sizes = bench.check_sizes;
  if (!bench.draw_sizes || sizes.empty()) return sizes;
  const long top = *std::max_element(sizes.begin(), sizes.end());
  // Mixed so that the sizes do not follow the first check seed's own sequence of values.
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  if (top >= 2) {
    const std::vector<long> drawn = drawn_sizes(bench, rng, 2, top, sizes);
    sizes.insert(sizes.end(), drawn.begin(), drawn.end());
  }
  return sizes;
}

std::vector<LargeSize> large_sizes_to_check(const Benchmark& bench, uint64_t seed) {
  if (!bench.draw_sizes || bench.check_sizes.empty()) return {};
  const long top = *std::max_element(bench.check_sizes.begin(), bench.check_sizes.end());
  const long time = bench.time_size;
  std::mt19937_64 rng(seed ^ 0xc2b2ae3d27d4eb4fULL);  // Apart from the small sizes' draws.
  std::vector<LargeSize> sizes;
  if (time - top >= 2)
    for (long n : drawn_sizes(bench, rng, top + 1, time - 1, {}))
      sizes.push_back({n, sizes.empty() ? size_t{2} : size_t{1}});
  // Between the time size and the largest, as between the check sizes and the time size, one
  // size drawn log-uniformly for each remainder modulo 8, the largest's too: a kernel may take
  // another path past the time size (DESIGN.md, red teams 22, 23 and 24: a band wrong only
  // below size.max at its remainder passed while size.max alone had that remainder there).
  const long largest = largest_checked_size(bench);
  if (largest - time >= 9) {
    for (long n : drawn_sizes(bench, rng, time + 1, largest - 1, {}))  // In increasing order.
      sizes.push_back({.size = n, .seeds = 1, .past_time = true});
  }
  // The largest size kernel.h allows, so that every limit a kernel may have between the time
  // size and it (a table of 2^k, 16- or 17-bit indices) is crossed: no draw can miss a limit
  // just below it (red team 21: a table of 2^20 partial sums passed while the drawn size past
  // the time size stayed under 6 x 10^5).
  if (largest > time) sizes.push_back({largest, 1});
  return sizes;
}

}  // namespace kopt
