#include <algorithm>

#include "harness.h"
#include "kernel.h"

// Size n: n bell-shaped samples (a sum of four uniforms) binned into 256 bins; a few percent
// fall outside [lo, hi) and land in the end bins.
class Histogram : public kopt_bench::Problem {
 public:
  static constexpr int kBins = 256;
  explicit Histogram(long n) : n_(n), v_(n), counts_(kBins) { output("counts", counts_); }
  void fill(kopt_bench::Rng& rng) override {
    for (auto& x : v_)
      x = rng.uniform(-1, 1) + rng.uniform(-1, 1) + rng.uniform(-1, 1) + rng.uniform(-1, 1);
    lo_ = rng.uniform(-2.5, -2.0);
    hi_ = rng.uniform(2.0, 2.5);
    bins_ = kBins;
  }
  // 0: every value on a bin edge, computed by the formula of kernel.h; 1: values far outside
  // [lo, hi) on both sides; 2: all values equal (one bin takes everything); 3: 7 bins (the
  // rest of counts is left alone).
  int edge_cases() const override { return 4; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    for (auto& x : v_) {
      if (k == 0) x = lo_ + static_cast<double>(rng.integer(0, kBins)) * (hi_ - lo_) / kBins;
      if (k == 1) x = rng.uniform(-1e6, 1e6);
    }
    if (k == 2) std::fill(v_.begin(), v_.end(), rng.uniform(lo_, hi_));
    if (k == 3) bins_ = 7;
  }
  void call() override { histogram(v_.data(), n_, lo_, hi_, counts_.data(), bins_); }

 private:
  long n_;
  std::vector<double> v_;
  std::vector<int64_t> counts_;
  double lo_ = 0, hi_ = 1;
  int bins_ = kBins;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Histogram>(argc, argv);
}
