#include "harness.h"
#include "kernel.h"

// Size n: an n x (3n/2 + 1) matrix, so rows and columns differ and are rarely tile multiples.
class Transpose : public kopt_bench::Problem {
 public:
  explicit Transpose(long n)
      : rows_(n), cols_(n + n / 2 + 1), a_(rows_ * cols_), b_(rows_ * cols_) {
    output("b", b_);
  }
  void fill(kopt_bench::Rng& rng) override { rng.fill(a_, -1.0, 1.0); }
  void call() override { transpose(a_.data(), b_.data(), rows_, cols_); }

 private:
  long rows_, cols_;
  std::vector<double> a_, b_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Transpose>(argc, argv);
}
