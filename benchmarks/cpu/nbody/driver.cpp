#include <algorithm>
#include <cmath>

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
    // kernel.h takes any softening eps > 0: drawn, so a kernel that hard-codes one is caught.
    eps_ = rng.uniform(0.002, 0.05);
  }
  void refill(kopt_bench::Rng& rng) override {
    const double eps = eps_;
    fill(rng);
    eps_ = eps;
  }
  // 0: every body at one point (all accelerations 0); 1: positions spread over [-1000, 1000)
  // with some massless bodies; 2: pairs of bodies at the same point; 3: softening 0.3; 4 and
  // 5: a softening drawn log-uniformly below the usual draws, 1e-12 to 0.002, and above them,
  // 0.05 to 1e12; 6: pairs at the same point under a softening from 1e-100 to 1e-12, where
  // (r2^3)^(1/2) underflows though r2^(3/2) does not; 7: a softening from 1e12 to 1e100 over
  // positions spread to +-1e90 (kernel.h's whole range: a kernel right only for the driver's
  // usual draws fails).
  int edge_cases() const override { return 8; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    const double point = rng.uniform(-1, 1);
    for (long i = 0; i < n_; ++i)
      for (int d = 0; d < 4; ++d) {
        double& v = body_[4 * i + d];
        if (k == 0 && d < 3) v = point;
        if (k == 1) v = d < 3 ? rng.uniform(-1000, 1000) : (i % 3 ? v : 0.0);
        if ((k == 2 || k == 6) && d < 3 && i % 2) v = body_[4 * (i - 1) + d];
        if (k == 7 && d < 3) v = rng.uniform(-1e90, 1e90);
      }
    if (k == 3) eps_ = 0.3;
    if (k == 4) eps_ = std::exp(rng.uniform(std::log(1e-12), std::log(0.002)));
    if (k == 5) eps_ = std::exp(rng.uniform(std::log(0.05), std::log(1e12)));
    if (k == 6) eps_ = std::exp(rng.uniform(std::log(1e-100), std::log(1e-12)));
    if (k == 7) eps_ = std::exp(rng.uniform(std::log(1e12), std::log(1e100)));
  }
  void call() override { nbody_accel(body_.data(), acc_.data(), n_, eps_); }

 private:
  long n_;
  kopt_bench::Array<double> body_, acc_;
  double eps_ = 0.01;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Nbody>(argc, argv);
}
