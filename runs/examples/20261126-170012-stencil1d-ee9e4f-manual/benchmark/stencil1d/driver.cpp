#include <algorithm>

#include "harness.h"
#include "kernel.h"

// Size n: a signal of n doubles filtered with a radius-kRadius stencil.
class Stencil1d : public kopt_bench::Problem {
 public:
  static constexpr int kRadius = 8;
  explicit Stencil1d(long n) : n_(n), in_(n), out_(n), w_(2 * kRadius + 1) { output("out", out_); }
  void fill(kopt_bench::Rng& rng) override {
    radius_ = kRadius;
    w_.resize(2 * kRadius + 1);
    rng.fill(in_, -1.0, 1.0);
    rng.fill(w_, -1.0, 1.0);
  }
  // Radii other than the driver's 8: 0, 1, 20 (wider than the small check sizes), one drawn
  // from 2..19 and one from 21..100 by the seed, so that a kernel right only at a few fixed
  // radii, or up to a largest one, fails somewhere.
  int edge_cases() const override { return 5; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    radius_ = k == 0 ? 0 : (k == 1 ? 1 : 20);
    if (k == 3) radius_ = static_cast<int>(rng.integer(2, 19));
    if (k == 4) radius_ = static_cast<int>(rng.integer(21, 100));
    w_.resize(2 * radius_ + 1);
    rng.fill(w_, -1.0, 1.0);
  }
  void call() override { stencil1d(in_.data(), out_.data(), n_, w_.data(), radius_); }

 private:
  long n_;
  std::vector<double> in_, out_, w_;
  int radius_ = kRadius;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Stencil1d>(argc, argv);
}
