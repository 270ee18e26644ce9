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
  void call() override { matmul(a_.data(), b_.data(), c_.data(), n_); }

 private:
  long n_;
  std::vector<double> a_, b_, c_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Matmul>(argc, argv);
}
