#include <algorithm>
#include <limits>

#include "harness.h"
#include "kernel.h"

// Size n: n integers in [-n/2, n/2], so that equal values are common, one in 64 anywhere in
// the int32 range.
class CountSmaller : public kopt_bench::Problem {
 public:
  explicit CountSmaller(long n) : n_(n), values_(n), counts_(n) { output("counts", counts_); }
  // One value in 64, at drawn positions, from the whole int32 range: a kernel that samples a
  // few values to decide they lie in [-n/2, n/2] (and counts them in a table that size) meets
  // one outside in the calls where it decided so.
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(values_, static_cast<double>(-(n_ / 2)), static_cast<double>(n_ / 2));
    for (long k = 0; k < n_ / 64; ++k)
      values_[rng.integer(0, n_ - 1)] = static_cast<int32_t>(
          rng.integer(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
  }
  // 0: values over the whole int32 range, both extremes included; 1: all values equal;
  // 2: strictly decreasing values.
  int edge_cases() const override { return 3; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    for (long i = 0; i < n_; ++i) {
      if (k == 0)
        values_[i] =
            static_cast<int32_t>(i % 7 == 0 ? (i % 2 ? kMin : kMax) : rng.integer(kMin, kMax));
      if (k == 1) values_[i] = 5;
      if (k == 2) values_[i] = static_cast<int32_t>(kMax - 3 * i);
    }
  }
  void call() override { count_smaller(values_.data(), n_, counts_.data()); }

 private:
  long n_;
  kopt_bench::Array<int32_t> values_, counts_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<CountSmaller>(argc, argv);
}
