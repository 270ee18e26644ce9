#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: an n x n grid of floats.
class Stencil : public cuda::Problem {
 public:
  explicit Stencil(long n) : n_(n), in_host_(n * n), in_(n * n), out_(n * n) {
    output("out", out_);
  }
  void fill(Rng& rng) override {
    rng.fill(in_host_, -1.0, 1.0);
    c_ = static_cast<float>(rng.uniform(0.2, 0.6));
    w_ = (1.0f - c_) / 4;
    in_.upload(in_host_);
  }
  // 0: c = 1, w = 0 (out is in); 1: a constant grid; 2: c = -1, w = 0.5 (weights of both
  // signs, not summing to 1).
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    fill(rng);
    if (k == 0) c_ = 1, w_ = 0;
    if (k == 1) std::fill(in_host_.begin(), in_host_.end(), static_cast<float>(rng.uniform(-1, 1)));
    if (k == 2) c_ = -1, w_ = 0.5f;
    in_.upload(in_host_);
  }
  void call() override { stencil5(in_.data(), out_.data(), n_, c_, w_); }

 private:
  long n_;
  std::vector<float> in_host_;
  cuda::DeviceBuffer<float> in_, out_;
  float c_ = 0, w_ = 0;
};

int main(int argc, char** argv) {
  return cuda::main<Stencil>(argc, argv);
}
