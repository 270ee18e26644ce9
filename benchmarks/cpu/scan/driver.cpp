#include <algorithm>
#include <cfloat>

#include "harness.h"
#include "kernel.h"

// Size n: n positive doubles (so the sums never cancel).
class Scan : public kopt_bench::Problem {
 public:
  explicit Scan(long n) : n_(n), x_(n), y_(n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override { rng.fill(x_, 0.0, 1.0); }
  // 0: all ones (exact sums); 1: subnormal values (exact sums, wrong if flushed to zero);
  // 2: zeros with rare spikes of 1e15; 3: values up to DBL_MAX / (2n), so that the sums are
  // near the top of the double range and still finite (red team 16: a scan that scaled by 2^64
  // to keep subnormals off the slow path overflowed there).
  int edge_cases() const override { return 4; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    for (auto& v : x_) {
      if (k == 0) v = 1.0;
      if (k == 1) v = rng.uniform(0, 1) * 1e-310;
      if (k == 2) v = rng.next() % 97 ? 0.0 : 1e15;
      if (k == 3) v = rng.uniform(0, 1) * (DBL_MAX / (2.0 * static_cast<double>(n_)));
    }
  }
  void call() override { prefix_sum(x_.data(), y_.data(), n_); }

 private:
  long n_;
  kopt_bench::Array<double> x_, y_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Scan>(argc, argv);
}
