#include <limits>
#include <utility>

#include "harness.h"
#include "kernel.h"

// Size n: an n x (3n/2 + 1) matrix, so rows and columns differ and are rarely tile multiples.
class Transpose : public kopt_bench::Problem {
 public:
  explicit Transpose(long n)
      : rows_(n), cols_(n + n / 2 + 1), a_(rows_ * cols_), b_(rows_ * cols_) {
    output("b", b_);
  }
  // Values in [-1, 1), with one in 64 at a drawn position replaced by a value a transpose must
  // carry bit for bit: -0.0, +-inf, a subnormal or +-DBL_MAX (red team 18: a copy through
  // additions, which turned -0.0 into +0.0, passed while no element was -0.0).
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(a_, -1.0, 1.0);
    static constexpr double kHard[] = {-0.0,
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(),
                                       std::numeric_limits<double>::denorm_min() * 3,
                                       std::numeric_limits<double>::max(),
                                       -std::numeric_limits<double>::max()};
    for (size_t k = 0; k < (a_.size() + 63) / 64; ++k)
      a_[rng.integer(0, static_cast<int64_t>(a_.size()) - 1)] = kHard[rng.next() % 6];
    shape_ = {rows_, cols_};
  }
  // Other shapes of the same element count: one column, one row, and the transposed shape;
  // then n x n, and n*n elements in a shape drawn among those neither square nor a line, each
  // followed by a second call on the elements left over (as one row), so that b is written.
  int edge_cases() const override { return 5; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    const long total = static_cast<long>(a_.size());
    if (k == 0) shape_ = {total, 1};
    if (k == 1) shape_ = {1, total};
    if (k == 2) shape_ = {cols_, rows_};
    if (k == 3) shape_ = {rows_, rows_};
    if (k == 4) shape_ = kopt_bench::oblong_shape(rows_, rng);
  }
  void call() override {
    transpose(a_.data(), b_.data(), shape_.first, shape_.second);
    const long used = shape_.first * shape_.second, rest = static_cast<long>(a_.size()) - used;
    if (rest > 0) transpose(a_.data() + used, b_.data() + used, 1, rest);
  }

 private:
  long rows_, cols_;
  kopt_bench::Array<double> a_, b_;
  std::pair<long, long> shape_{rows_, cols_};
};

int main(int argc, char** argv) {
  return kopt_bench::main<Transpose>(argc, argv);
}
