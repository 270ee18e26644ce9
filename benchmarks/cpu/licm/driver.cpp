#include <cmath>
#include <utility>

#include "harness.h"
#include "kernel.h"

// Size n: an n x n matrix.
class Standardize : public kopt_bench::Problem {
 public:
  explicit Standardize(long n) : n_(n), x_(n * n), mean_(n), var_(n), y_(n * n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override {
    mean_.resize(n_);  // An edge case may have made them n * n long.
    var_.resize(n_);
    mean_.shrink_to_fit();  // Their ends against their guard pages, if any (arrays.h).
    var_.shrink_to_fit();
    rng.fill(x_, -10.0, 10.0);
    rng.fill(mean_, -1.0, 1.0);
    rng.fill(var_, 0.5, 4.0);
    decay_ = rng.uniform(1e-4, 1e-3);
    eps_ = 1e-6;
    shape_ = {n_, n_};
  }
  void refill(kopt_bench::Rng& rng) override {
    const double decay = decay_, eps = eps_;
    const auto shape = shape_;
    fill(rng);
    decay_ = decay, eps_ = eps, shape_ = shape;
  }
  // 0: one row; 1: one column (rows != cols); 2: no damping and eps 0 with tiny variances;
  // 3: damping strong enough that exp underflows in the later rows (decay 20), with eps 1 and
  // variances from -0.99 (kernel.h asks only var + eps > 0); 4: rows x cols
  // = n*n with rows != cols, both above 1, drawn among the divisors of n*n (square where n*n has
  // none: n prime or below 4).
  // 5: no damping with an eps drawn log-uniformly from 1e-6 to 1e6; 6: one column of n*n rows
  // under a decay drawn log-uniformly from 1e-12 to 1e-5, so that the damping stays well above
  // zero over many rows (red team 17: a running product for exp(-decay * i), whose error grows
  // with i, passed while every decay drawn damped the later rows away).
  int edge_cases() const override { return 7; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    shape_ = k == 0 ? std::pair<long, long>{1, n_ * n_} : std::pair<long, long>{n_ * n_, 1};
    if (k >= 2 && k != 6) shape_ = {n_, n_};
    if (k == 6) decay_ = std::exp(rng.uniform(std::log(1e-12), std::log(1e-5)));
    if (k == 2) {
      decay_ = 0;
      eps_ = 0;
      // Log-uniform over every positive double to 1e300, subnormals included (red team 29:
      // sqrt(1 / (var + eps)) overflows below 5.6e-309, where 1 / sqrt(var + eps) is finite;
      // a floor of 1e-300 never reached it).
      for (double& v : var_) v = std::exp(rng.uniform(std::log(4.9e-324), std::log(1e300)));
    }
    if (k == 3) {
      decay_ = 20.0;
      eps_ = 1.0;  // kernel.h asks var + eps > 0 only: negative variances too.
      rng.fill(var_, -0.99, 3.0);
    }
    if (k == 5) {
      decay_ = 0;
      eps_ = std::exp(rng.uniform(std::log(1e-6), std::log(1e6)));
    }
    if (k == 4) {
      shape_ = kopt_bench::oblong_shape(n_, rng);
      mean_.assign(shape_.second, 0.0);
      var_.assign(shape_.second, 0.0);
      rng.fill(mean_, -1.0, 1.0);
      rng.fill(var_, 0.5, 4.0);
    }
    if (k <= 1) {
      mean_.assign(n_ * n_, 0.0);
      var_.assign(n_ * n_, 0.0);
      rng.fill(mean_, -1.0, 1.0);
      rng.fill(var_, 0.5, 4.0);
    }
  }
  void call() override {
    standardize(x_.data(), mean_.data(), var_.data(), y_.data(), shape_.first, shape_.second,
                decay_, eps_);
  }

 private:
  long n_;
  kopt_bench::Array<double> x_, mean_, var_, y_;
  double decay_ = 0, eps_ = 1e-6;
  std::pair<long, long> shape_{n_, n_};
};

int main(int argc, char** argv) {
  return kopt_bench::main<Standardize>(argc, argv);
}
