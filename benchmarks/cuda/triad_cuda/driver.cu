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
  // 0: s = 0 (a is b); 1: s = -1000; 2: b = 0 and c subnormal (lost if flushed to zero).
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    fill(rng);
    if (k == 0) s_ = 0;
    if (k == 1) s_ = -1000;
    if (k == 2) {
      s_ = 1;
      std::fill(b_host_.begin(), b_host_.end(), 0.0f);
      for (auto& v : c_host_) v = static_cast<float>(rng.uniform(1, 2) * 1e-40);
      b_.upload(b_host_);
      c_.upload(c_host_);
    }
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
