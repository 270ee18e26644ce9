#include <algorithm>

#include "harness.h"
#include "kernel.h"

// Size n: n x n matrices with entries in [-1, 1).
class Matmul : public kopt_bench::Problem {
 public:
  explicit Matmul(long n) : n_(n), a_(n * n), b_(n * n), c_(n * n) { output("c", c_); }
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(a_, -1.0, 1.0);
    rng.fill(b_, -1.0, 1.0);
  }
  // 0: A upper triangular, B the identity (C = A exactly); 1: entries that are small integers
  // (every sum exact); 2: subnormal entries in A (products flush to 0 only with FTZ/DAZ).
  int edge_cases() const override { return 3; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    for (long i = 0; i < n_; ++i)
      for (long j = 0; j < n_; ++j) {
        if (k == 0) {
          if (j < i) a_[i * n_ + j] = 0.0;
          b_[i * n_ + j] = i == j ? 1.0 : 0.0;
        }
        if (k == 1) {
          a_[i * n_ + j] = static_cast<double>(rng.integer(-8, 8));
          b_[i * n_ + j] = static_cast<double>(rng.integer(-8, 8));
        }
        if (k == 2) a_[i * n_ + j] *= 1e-300;
      }
  }
  void call() override { matmul(a_.data(), b_.data(), c_.data(), n_); }

 private:
  long n_;
  kopt_bench::Array<double> a_, b_, c_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Matmul>(argc, argv);
}
