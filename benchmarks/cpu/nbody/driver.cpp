#include "harness.h"
#include "kernel.h"

// Size n: n bodies in the unit cube with masses summing to about 1, softening 0.01.
class Nbody : public kopt_bench::Problem {
 public:
  explicit Nbody(long n) : n_(n), body_(4 * n), acc_(3 * n) { output("acc", acc_); }
  void fill(kopt_bench::Rng& rng) override {
    for (long i = 0; i < n_; ++i) {
      for (int d = 0; d < 3; ++d) body_[4 * i + d] = rng.uniform(0.0, 1.0);
      body_[4 * i + 3] = rng.uniform(0.5, 1.5) / static_cast<double>(n_);
    }
  }
  void call() override { nbody_accel(body_.data(), acc_.data(), n_, 0.01); }

 private:
  long n_;
  std::vector<double> body_, acc_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Nbody>(argc, argv);
}
