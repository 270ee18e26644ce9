#include <algorithm>
#include <tuple>

#include "harness.h"
#include "kernel.h"

// Size n: an n x n matrix of scores in [-20, 20) (attention-style logits), one row in 32 shifted
// by 700 to 900 either way.
class Softmax : public kopt_bench::Problem {
 public:
  explicit Softmax(long n) : n_(n), x_(n * n), y_(n * n) { output("y", y_); }
  // One row in 32, at drawn rows, shifted by 700 to 900 either way (exp overflows or underflows
  // without the row's maximum subtracted): a kernel that samples a few logits to decide the
  // subtraction is not needed meets such a row in the calls where it skips it.
  void fill(kopt_bench::Rng& rng) override {
    rows_ = cols_ = n_;
    rng.fill(x_, -20.0, 20.0);
    for (long k = 0; k < (n_ + 31) / 32; ++k) {
      const long row = rng.integer(0, n_ - 1);
      const double shift = rng.uniform(700.0, 900.0) * (rng.next() % 2 ? 1.0 : -1.0);
      for (long j = 0; j < n_; ++j) x_[row * n_ + j] += shift;
    }
    // And one row in 64 spanning [-800, 800), as the edge case does in every row: a kernel that
    // samples a few rows' spans to decide the maximum need not be subtracted meets such a row
    // where it did not sample (red team 26: a shifted row still spans under 40).
    for (long k = 0; k < (n_ + 63) / 64; ++k) {
      const long row = rng.integer(0, n_ - 1);
      for (long j = 0; j < n_; ++j) x_[row * n_ + j] = rng.uniform(-800.0, 800.0);
    }
  }
  // Logits in the hundreds (exp overflows or underflows without the max subtracted), rows of
  // equal values, other shapes of the same element count (one long row; rows of one), and rows
  // spanning [-800, 800) (no single logit but the maximum keeps every term finite); last, a
  // shape of n*n logits that is neither square nor a line (rows != cols, both above 1).
  int edge_cases() const override { return 7; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    if (k == 0) rng.fill(x_, 710.0, 900.0);
    if (k == 1) rng.fill(x_, -900.0, -750.0);
    if (k == 2)
      for (long i = 0; i < n_; ++i)
        std::fill(x_.begin() + i * n_, x_.begin() + (i + 1) * n_, rng.uniform(-300, 300));
    if (k == 3) rows_ = 1, cols_ = n_ * n_;
    if (k == 4) rows_ = n_ * n_, cols_ = 1;
    if (k == 5) rng.fill(x_, -800.0, 800.0);
    if (k == 6) std::tie(rows_, cols_) = kopt_bench::oblong_shape(n_, rng);
  }
  void call() override { softmax_rows(x_.data(), y_.data(), rows_, cols_); }

 private:
  long n_, rows_ = 0, cols_ = 0;
  kopt_bench::Array<double> x_, y_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Softmax>(argc, argv);
}
