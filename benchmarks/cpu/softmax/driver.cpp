#include "harness.h"
#include "kernel.h"

// Size n: an n x n matrix of scores in [-20, 20) (attention-style logits).
class Softmax : public kopt_bench::Problem {
 public:
  explicit Softmax(long n) : n_(n), x_(n * n), y_(n * n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override { rng.fill(x_, -20.0, 20.0); }
  void call() override { softmax_rows(x_.data(), y_.data(), n_, n_); }

 private:
  long n_;
  std::vector<double> x_, y_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Softmax>(argc, argv);
}
