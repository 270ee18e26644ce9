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
  }
  void call() override { histogram(v_.data(), n_, lo_, hi_, counts_.data(), kBins); }

 private:
  long n_;
  std::vector<double> v_;
  std::vector<int64_t> counts_;
  double lo_ = 0, hi_ = 1;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Histogram>(argc, argv);
}
