#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: three arrays of n floats.
class Triad : public cuda::Problem {
 public:
  explicit Triad(long n) : n_(n), b_host_(n), c_host_(n), a_(n), b_(n), c_(n) { output("a", a_); }
  void fill(Rng& rng) override {
    rng.fill(b_host_, -1.0, 1.0);
    rng.fill(c_host_, -1.0, 1.0);
    s_ = static_cast<float>(rng.uniform(0.5, 2.0));
    b_.upload(b_host_);
    c_.upload(c_host_);
  }
  void call() override { triad(a_.data(), b_.data(), c_.data(), s_, n_); }

 private:
  long n_;
  std::vector<float> b_host_, c_host_;
  cuda::DeviceBuffer<float> a_, b_, c_;
  float s_ = 0;
};

int main(int argc, char** argv) {
  return cuda::main<Triad>(argc, argv);
}
