#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: an array of n floats in [0, 1).
class Reduction : public cuda::Problem {
 public:
  explicit Reduction(long n) : n_(n), x_host_(n), x_(n), sum_(1) { output("sum", sum_); }
  void fill(Rng& rng) override {
    rng.fill(x_host_, 0.0, 1.0);
    x_.upload(x_host_);
  }
  // 0: all ones (an exact sum); 1: values near 1e30 (float range, summed in double);
  // 2: subnormal floats (exact in double, lost if flushed to zero).
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    for (auto& v : x_host_)
      v = k == 0 ? 1.0f : static_cast<float>(rng.uniform(1, 2) * (k == 1 ? 1e30 : 1e-40));
    x_.upload(x_host_);
  }
  void call() override { reduce_sum(x_.data(), sum_.data(), n_); }

 private:
  long n_;
  std::vector<float> x_host_;
  cuda::DeviceBuffer<float> x_;
  cuda::DeviceBuffer<double> sum_;
};

int main(int argc, char** argv) {
  return cuda::main<Reduction>(argc, argv);
}
