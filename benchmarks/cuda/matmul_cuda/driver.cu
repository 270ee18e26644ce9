#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: two n x n matrices of floats in [-1, 1).
class Matmul : public cuda::Problem {
 public:
  explicit Matmul(long n) : n_(n), a_host_(n * n), b_host_(n * n), a_(n * n), b_(n * n), c_(n * n) {
    output("c", c_);
  }
  void fill(Rng& rng) override {
    rng.fill(a_host_, -1.0, 1.0);
    rng.fill(b_host_, -1.0, 1.0);
    a_.upload(a_host_);
    b_.upload(b_host_);
  }
  // 0: A upper triangular, B the identity (C = A exactly); 1: small integer entries (exact
  // sums); 2: A all zero but one row.
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    fill(rng);
    const long keep = rng.integer(0, n_ - 1);
    for (long i = 0; i < n_; ++i)
      for (long j = 0; j < n_; ++j) {
        if (k == 0) {
          if (j < i) a_host_[i * n_ + j] = 0;
          b_host_[i * n_ + j] = i == j ? 1.0f : 0.0f;
        }
        if (k == 1) {
          a_host_[i * n_ + j] = static_cast<float>(rng.integer(-8, 8));
          b_host_[i * n_ + j] = static_cast<float>(rng.integer(-8, 8));
        }
        if (k == 2 && i != keep) a_host_[i * n_ + j] = 0;
      }
    a_.upload(a_host_);
    b_.upload(b_host_);
  }
  void call() override { matmul(a_.data(), b_.data(), c_.data(), n_); }

 private:
  long n_;
  std::vector<float> a_host_, b_host_;
  cuda::DeviceBuffer<float> a_, b_, c_;
};

int main(int argc, char** argv) {
  return cuda::main<Matmul>(argc, argv);
}
