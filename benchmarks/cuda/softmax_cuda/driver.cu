#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: an n x n matrix of floats in [-10, 10).
class Softmax : public cuda::Problem {
 public:
  explicit Softmax(long n) : n_(n), x_host_(n * n), x_(n * n), y_(n * n) { output("y", y_); }
  void fill(Rng& rng) override {
    rng.fill(x_host_, -10.0, 10.0);
    x_.upload(x_host_);
  }
  // Logits in the hundreds (float exp overflows past 88 without the max subtracted, and
  // underflows below -103) and rows of equal values.
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    if (k == 0) rng.fill(x_host_, 100.0, 200.0);
    if (k == 1) rng.fill(x_host_, -200.0, -100.0);
    if (k == 2)
      for (long i = 0; i < n_; ++i)
        std::fill(x_host_.begin() + i * n_, x_host_.begin() + (i + 1) * n_,
                  static_cast<float>(rng.uniform(-50, 50)));
    x_.upload(x_host_);
  }
  void call() override { softmax_rows(x_.data(), y_.data(), n_, n_); }

 private:
  long n_;
  std::vector<float> x_host_;
  cuda::DeviceBuffer<float> x_, y_;
};

int main(int argc, char** argv) {
  return cuda::main<Softmax>(argc, argv);
}
