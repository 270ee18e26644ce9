#include <algorithm>
#include <cmath>

#include "harness.h"
#include "kernel.h"

// Size n: an n x n sparse matrix shaped like a growing network: row i holds about
// 1.2 (n / (i + 1))^0.9 nonzeros (hubs at the top; 9.2 per row on average at n = 2^20), half of
// them near the diagonal and half anywhere; values and x are positive.
class Spmv : public kopt_bench::Problem {
 public:
  explicit Spmv(long n) : n_(n), row_ptr_(n + 1), x_(n), y_(n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override {
    for (long i = 0; i < n_; ++i) {
      const double expected = 1.2 * std::pow(double(n_) / double(i + 1), 0.9);
      const long len = std::clamp(std::lround(expected * rng.uniform(0.5, 1.5)), 1L, n_);
      row_ptr_[i + 1] = row_ptr_[i] + len;
    }
    col_.resize(row_ptr_[n_]);
    val_.resize(row_ptr_[n_]);
    for (long i = 0; i < n_; ++i) {
      for (int64_t k = row_ptr_[i]; k < row_ptr_[i + 1]; ++k) {
        // One draw per entry: its upper half says near or anywhere, its lower half where.
        const uint64_t r = rng.next(), low = r & 0xffffffffu;
        const long near = std::clamp(i + static_cast<long>((low * 129) >> 32) - 64, 0L, n_ - 1);
        const auto anywhere = static_cast<long>((low * static_cast<uint64_t>(n_)) >> 32);
        col_[k] = static_cast<int32_t>(r >> 63 ? near : anywhere);
      }
      std::sort(col_.begin() + row_ptr_[i], col_.begin() + row_ptr_[i + 1]);
    }
    rng.fill(val_, 0.01, 1.0);
    rng.fill(x_, 0.01, 1.0);
  }
  // 0: about half the rows empty (the first and the last among them); 1: every entry in one
  // row, the others empty; 2: columns unsorted within rows, with repeated columns (summed).
  int edge_cases() const override { return 3; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    const long dense = rng.integer(0, n_ - 1);
    for (long i = 0; i < n_; ++i) {
      long len = rng.integer(1, 12);
      if (k == 0 && (i == 0 || i == n_ - 1 || rng.next() % 2)) len = 0;
      if (k == 1) len = i == dense ? 3 * n_ : 0;
      row_ptr_[i + 1] = row_ptr_[i] + len;
    }
    col_.resize(row_ptr_[n_]);
    val_.resize(row_ptr_[n_]);
    for (auto& c : col_) c = static_cast<int32_t>(rng.integer(0, k == 2 ? 3 : n_ - 1) % n_);
    rng.fill(val_, 0.01, 1.0);
    rng.fill(x_, 0.01, 1.0);
  }
  void call() override {
    spmv(n_, row_ptr_.data(), col_.data(), val_.data(), x_.data(), y_.data());
  }

 private:
  long n_;
  std::vector<int64_t> row_ptr_;
  std::vector<int32_t> col_;
  std::vector<double> val_, x_, y_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<Spmv>(argc, argv);
}
