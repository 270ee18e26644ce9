#include "harness.h"
#include "kernel.h"

// Size n: n integers in [-n/2, n/2], so that equal values are common.
class CountSmaller : public kopt_bench::Problem {
 public:
  explicit CountSmaller(long n) : n_(n), values_(n), counts_(n) { output("counts", counts_); }
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(values_, static_cast<double>(-(n_ / 2)), static_cast<double>(n_ / 2));
  }
  void call() override { count_smaller(values_.data(), n_, counts_.data()); }

 private:
  long n_;
  std::vector<int32_t> values_, counts_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<CountSmaller>(argc, argv);
}
