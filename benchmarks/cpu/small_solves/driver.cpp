#include "harness.h"
#include "kernel.h"

// Size n: n systems of size 4 x 4; entries in [-1, 1] with 1 added to the diagonal.
class SmallSolves : public kopt_bench::Problem {
 public:
  static constexpr int kOrder = 4;
  explicit SmallSolves(long n) : n_(n), a_(n * kOrder * kOrder), b_(n * kOrder), x_(n * kOrder) {
    output("x", x_);
  }
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(a_, -1.0, 1.0);
    for (long s = 0; s < n_; ++s)
      for (int r = 0; r < kOrder; ++r) a_[(s * kOrder + r) * kOrder + r] += 1.0;
    rng.fill(b_, -1.0, 1.0);
  }
  void call() override { solve_small_systems(a_.data(), b_.data(), n_, kOrder, x_.data()); }

 private:
  long n_;
  std::vector<double> a_, b_, x_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<SmallSolves>(argc, argv);
}
