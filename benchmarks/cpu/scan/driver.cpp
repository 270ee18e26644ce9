#include "harness.h"
#include "kernel.h"

// Size n: n positive doubles (so the sums never cancel).
class Scan : public kopt_bench::Problem {
 public:
  explicit Scan(long n) : n_(n), x_(n), y_(n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override { rng.fill(x_, 0.0, 1.0); }
  void call() override { prefix_sum(x_.data(), y_.data(), n_); }

 private:
  long n_;
  std::vector<double> x_, y_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Scan>(argc, argv);
}
