#include "harness.h"
#include "kernel.h"

// Size n: an n x n matrix.
class Standardize : public kopt_bench::Problem {
 public:
  explicit Standardize(long n) : n_(n), x_(n * n), mean_(n), var_(n), y_(n * n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(x_, -10.0, 10.0);
    rng.fill(mean_, -1.0, 1.0);
    rng.fill(var_, 0.5, 4.0);
    decay_ = rng.uniform(1e-4, 1e-3);
  }
  void call() override {
    standardize(x_.data(), mean_.data(), var_.data(), y_.data(), n_, n_, decay_, 1e-6);
  }

 private:
  long n_;
  std::vector<double> x_, mean_, var_, y_;
  double decay_ = 0;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Standardize>(argc, argv);
}
