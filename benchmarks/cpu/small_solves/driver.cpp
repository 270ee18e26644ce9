#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "harness.h"
#include "kernel.h"

// Size n: n systems of size 4 x 4; entries in [-1, 1] with 1 added to the diagonal.
class SmallSolves : public kopt_bench::Problem {
 public:
  static constexpr int kOrder = 4;
  // Edge case 5's orders reach 256 where the matrices stay under 2^23 entries (64 MiB): a
  // kernel sized for any fixed order a reader of this file might pick up to that fails here.
  static constexpr int kMaxOrder = 256;
  static constexpr long kMaxEntries = 1L << 23;
  // x is in/out, zeroed by every fill: an order that does not divide 4n leaves the end of x
  // alone on both sides, which a poisoned output could not tell from a wrong role.
  explicit SmallSolves(long n) : n_(n), a_(n * kOrder * kOrder), b_(n * kOrder), x_(n * kOrder) {
    inout("x", x_);
  }
  void fill(kopt_bench::Rng& rng) override {
    order_ = kOrder;
    count_ = n_;
    a_.resize(n_ * kOrder * kOrder);  // An edge case may have made it another size.
    a_.shrink_to_fit();
    for (long i = 0; i < n_ * kOrder * kOrder; ++i) a_[i] = rng.uniform(-1.0, 1.0);
    for (long s = 0; s < n_; ++s)
      for (int r = 0; r < kOrder; ++r) a_[(s * kOrder + r) * kOrder + r] += 1.0;
    rng.fill(b_, -1.0, 1.0);
    std::fill(x_.begin(), x_.end(), 0.0);
  }
  // 0: zero diagonals: each system is a row rotation of a diagonally dominant matrix, with
  // the entries landing on the diagonal set to 0 (solvable only with pivoting).
  // 1: systems scaled by 1e-300 .. 1e300 (the solution does not change; red team 16: pivoting
  // by squares, which underflow below 1e-162, passed at 1e-100).
  // 2, 3: other orders in the same storage: 2n systems of order 2, 4n of order 1.
  // 4: as 0, with tiny diagonal entries (|a_ii| < 1e-15) instead of zeros: only the partial
  // pivoting kernel.h specifies keeps the error small, not a test for an exact zero.
  // 5: floor(4n / k) systems of an order k drawn from 5..256 (at most 4n, the matrices under
  // kMaxEntries; past any buffer sized for a small order; 4 where none fits), with zero
  // diagonals as in 0. 6, 7: as 0 (zero diagonals, solvable only with pivoting) at the small
  // orders a kernel may write out by hand: 6 one of 3, 5, 7, 7 one of 6, 8, 2, drawn among those
  // at most 4n. Any order at any size: the end of x that no system reaches stays zero on both
  // sides (red team 14: orders that had to divide 4n left 9 to 16 unchecked in most evaluations).
  int edge_cases() const override { return 8; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    if (k == 6 || k == 7)
      return fill_pivoting(rng, k == 6 ? small_order(rng, {3, 5, 7}) : small_order(rng, {6, 8, 2}));
    if (k == 5) return fill_pivoting(rng, larger_order(rng));
    if (k == 2 || k == 3) {
      order_ = k == 2 ? 2 : 1;
      count_ = n_ * kOrder / order_;
      for (long s = 0; s < count_; ++s)
        for (int r = 0; r < order_; ++r) a_[(s * order_ + r) * order_ + r] += 2.0 * order_;
      return;
    }
    for (long s = 0; s < n_; ++s) {
      double* a = a_.data() + s * kOrder * kOrder;
      if (k == 0 || k == 4) {
        for (int r = 0; r < kOrder; ++r) a[r * kOrder + r] += 3.0;
        std::rotate(a, a + kOrder, a + kOrder * kOrder);
        for (int r = 0; r < kOrder; ++r)
          a[r * kOrder + r] = k == 0 ? 0.0 : rng.uniform(-1e-15, 1e-15);
        if (k == 0) scale_system(rng, a, b_.data() + s * kOrder, kOrder);
      } else {
        const double scale = std::pow(10.0, static_cast<double>(rng.integer(-300, 300)));
        for (int i = 0; i < kOrder * kOrder; ++i) a[i] *= scale;
        for (int r = 0; r < kOrder; ++r) b_[s * kOrder + r] *= scale;
      }
    }
  }
  void call() override { solve_small_systems(a_.data(), b_.data(), count_, order_, x_.data()); }

 private:
  // One of `orders` drawn among those at most 4n, else 2 (1 at n where 4n < 2 cannot happen).
  int small_order(kopt_bench::Rng& rng, std::initializer_list<int> orders) const {
    std::vector<int> fitting;
    for (int order : orders)
      if (order <= n_ * kOrder) fitting.push_back(order);
    if (fitting.empty()) return 2;
    return fitting[rng.integer(0, static_cast<int64_t>(fitting.size()) - 1)];
  }

  // floor(4n / order) systems of that order, each a row rotation of a diagonally dominant matrix
  // with the entries landing on the diagonal set to 0.
  void fill_pivoting(kopt_bench::Rng& rng, int order) {
    order_ = order;
    count_ = n_ * kOrder / order;
    a_.resize(count_ * order * order);
    a_.shrink_to_fit();  // Its end against its guard page, if it has one (arrays.h).
    for (long s = 0; s < count_; ++s) {
      double* a = a_.data() + s * order * order;
      for (int i = 0; i < order * order; ++i) a[i] = rng.uniform(-1.0, 1.0);
      for (int r = 0; r < order; ++r) a[r * order + r] += 2.0 * order;
      std::rotate(a, a + order, a + order * order);
      for (int r = 0; r < order; ++r) a[r * order + r] = 0.0;
      scale_system(rng, a, b_.data() + s * order, order);
    }
  }

  // Half the time, multiplies a system (its matrix and right-hand side) by 10^-300 .. 10^300:
  // the solution is the same, and pivoting must not compare entries with a fixed threshold.
  static void scale_system(kopt_bench::Rng& rng, double* a, double* b, int order) {
    if (rng.next() % 2) return;
    const double scale = std::pow(10.0, static_cast<double>(rng.integer(-300, 300)));
    for (int i = 0; i < order * order; ++i) a[i] *= scale;
    for (int r = 0; r < order; ++r) b[r] *= scale;
  }

  // An order from 5..kMaxOrder, at most 4n, within kMaxEntries: the largest such half the time,
  // else any (4 where none fits).
  int larger_order(kopt_bench::Rng& rng) const {
    int largest = static_cast<int>(std::min<long>(kMaxOrder, n_ * kOrder));
    while (largest >= 5 && n_ * kOrder * largest > kMaxEntries) --largest;
    if (largest < 5) return kOrder;
    if (rng.next() % 2) return largest;  // The largest half the time: far past any cap.
    return static_cast<int>(rng.integer(5, largest));
  }

  long n_, count_ = 0;
  int order_ = kOrder;
  kopt_bench::Array<double> a_, b_, x_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<SmallSolves>(argc, argv);
}
