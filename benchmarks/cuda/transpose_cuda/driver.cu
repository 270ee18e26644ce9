#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: an n x (n + 1) matrix of floats (not square, so swapped dimensions show).
class Transpose : public cuda::Problem {
 public:
  explicit Transpose(long n)
      : rows_(n), cols_(n + 1), in_host_(rows_ * cols_), in_(rows_ * cols_), out_(rows_ * cols_) {
    output("out", out_);
  }
  void fill(Rng& rng) override {
    rng.fill(in_host_, -1.0, 1.0);
    in_.upload(in_host_);
  }
  void call() override { transpose(in_.data(), out_.data(), rows_, cols_); }

 private:
  long rows_, cols_;
  std::vector<float> in_host_;
  cuda::DeviceBuffer<float> in_, out_;
};

int main(int argc, char** argv) {
  return cuda::main<Transpose>(argc, argv);
}
