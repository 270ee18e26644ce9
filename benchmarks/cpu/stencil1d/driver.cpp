#include <algorithm>
#include <cmath>

#include "harness.h"
#include "kernel.h"

// Size n: a signal of n doubles filtered with a radius-kRadius stencil.
class Stencil1d : public kopt_bench::Problem {
 public:
  static constexpr int kRadius = 8;
  static constexpr int kMaxRadius = 16384;  // kernel.h's largest radius.
  explicit Stencil1d(long n) : n_(n), in_(n), out_(n), w_(2 * kRadius + 1) { output("out", out_); }
  void fill(kopt_bench::Rng& rng) override {
    radius_ = kRadius;
    w_.resize(2 * kRadius + 1);
    w_.shrink_to_fit();  // Its end against its guard page, if it has one (arrays.h).
    rng.fill(in_, -1.0, 1.0);
    rng.fill(w_, -1.0, 1.0);
  }
  // Radii other than the driver's 8: 0, 1, 20 (wider than the small check sizes), one drawn
  // from 2..19 and one from 21..100 by the seed, kernel.h's largest, and one drawn
  // log-uniformly from each of four bands over 101..16384 ([101, 400), [400, 1600),
  // [1600, 6400), [6400, 16384]): a kernel right only at a few fixed radii, or wrong in a range
  // of them, meets that range at every size, not in one draw of eight. The widest are held to
  // 2^26 / n, so that a call costs at most about 2^27 taps: the check sizes get radii up to
  // 16384, the time size its usual 8.
  static constexpr int kWideBands = 4;
  int edge_cases() const override { return 6 + kWideBands; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    radius_ = k == 0 ? 0 : (k == 1 ? 1 : 20);
    if (k == 3) radius_ = static_cast<int>(rng.integer(2, 19));
    if (k == 4) radius_ = static_cast<int>(rng.integer(21, 100));
    const int widest = static_cast<int>(std::min<long>((1L << 26) / n_, kMaxRadius));
    if (k == 5) radius_ = widest;
    if (k >= 6) {
      static constexpr int kBandStarts[] = {101, 400, 1600, 6400, kMaxRadius + 1};
      const int lo = std::min(kBandStarts[k - 6], widest);
      radius_ = log_uniform(rng, lo, std::min(kBandStarts[k - 5] - 1, widest));
    }
    w_.resize(2 * radius_ + 1);
    w_.shrink_to_fit();
    rng.fill(w_, -1.0, 1.0);
  }
  void call() override { stencil1d(in_.data(), out_.data(), n_, w_.data(), radius_); }

 private:
  // An integer drawn log-uniformly from [lo, hi]: 101..200 about as likely as 8192..16383.
  static int log_uniform(kopt_bench::Rng& rng, int lo, int hi) {
    const double drawn = std::exp(rng.uniform(std::log(lo), std::log(hi + 1.0)));
    return std::clamp(static_cast<int>(drawn), lo, hi);
  }

  long n_;
  kopt_bench::Array<double> in_, out_, w_;
  int radius_ = kRadius;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Stencil1d>(argc, argv);
}
