#include <algorithm>
#include <cmath>

#include "harness.h"
#include "kernel.h"

namespace {

// Sorts a row's columns; a long one (the hubs hold a third of the entries) by two counting
// passes over 16 bits each (columns are below 2^31), in a fraction of a comparison sort's time.
void sort_columns(int32_t* first, int32_t* last, std::vector<int32_t>& scratch) {
  const auto len = static_cast<size_t>(last - first);
  if (len < 4096) return std::sort(first, last);
  scratch.resize(len);
  std::vector<size_t> start(65537);
  int32_t* from = first;
  int32_t* to = scratch.data();
  for (int shift : {0, 16}) {
    std::fill(start.begin(), start.end(), 0);
    for (size_t k = 0; k < len; ++k) ++start[((from[k] >> shift) & 0xffff) + 1];
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    for (size_t k = 0; k < len; ++k) to[start[(from[k] >> shift) & 0xffff]++] = from[k];
    std::swap(from, to);
  }  // Two passes: the sorted columns are back in [first, last).
}

}  // namespace

// Size n: an n x n sparse matrix shaped like a growing network: row i holds about
// 1.2 (n / (i + 1))^0.9 nonzeros (hubs at the top; 9.2 per row on average at n = 2^20), half of
// them near the diagonal and half anywhere; values and x are positive.
class Spmv : public kopt_bench::Problem {
 public:
  explicit Spmv(long n) : n_(n), row_ptr_(n + 1), x_(n), y_(n) { output("y", y_); }
  void fill(kopt_bench::Rng& rng) override {
    row_ptr_[0] = 0;
    for (long i = 0; i < n_; ++i) {
      const double expected = 1.2 * std::pow(double(n_) / double(i + 1), 0.9);
      const long len = std::clamp(std::lround(expected * rng.uniform(0.5, 1.5)), 1L, n_);
      row_ptr_[i + 1] = row_ptr_[i] + len;
    }
    col_.resize(row_ptr_[n_]);
    val_.resize(row_ptr_[n_]);
    col_.shrink_to_fit();  // Their ends against their guard pages, if any (arrays.h).
    val_.shrink_to_fit();
    for (long i = 0; i < n_; ++i) {
      for (int64_t k = row_ptr_[i]; k < row_ptr_[i + 1]; ++k) {
        // One draw per entry: its upper half says near or anywhere, its lower half where.
        const uint64_t r = rng.next(), low = r & 0xffffffffu;
        const long near = std::clamp(i + static_cast<long>((low * 129) >> 32) - 64, 0L, n_ - 1);
        const auto anywhere = static_cast<long>((low * static_cast<uint64_t>(n_)) >> 32);
        col_[k] = static_cast<int32_t>(r >> 63 ? near : anywhere);
      }
      sort_columns(col_.data() + row_ptr_[i], col_.data() + row_ptr_[i + 1], scratch_);
    }
    rng.fill(val_, 0.01, 1.0);
    rng.fill(x_, 0.01, 1.0);
  }
  // 0: about half the rows empty (the first and the last among them); 1: every entry in one
  // row, the others empty; 2: columns unsorted within rows, with repeated columns (summed);
  // 3: a window of rows of a larger matrix, row_ptr[0] drawn from 1 to 1000 (the entries before
  // it are other rows'; red team 18: a merge-path kernel that took row_ptr[0] for 0 passed).
  int edge_cases() const override { return 4; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    const long dense = rng.integer(0, n_ - 1);
    row_ptr_[0] = k == 3 ? rng.integer(1, 1000) : 0;
    for (long i = 0; i < n_; ++i) {
      long len = rng.integer(1, 12);
      if (k == 0 && (i == 0 || i == n_ - 1 || rng.next() % 2)) len = 0;
      if (k == 1) len = i == dense ? 3 * n_ : 0;
      row_ptr_[i + 1] = row_ptr_[i] + len;
    }
    col_.resize(row_ptr_[n_]);
    val_.resize(row_ptr_[n_]);
    col_.shrink_to_fit();  // Their ends against their guard pages, if any (arrays.h).
    val_.shrink_to_fit();
    for (auto& c : col_) c = static_cast<int32_t>(rng.integer(0, k == 2 ? 3 : n_ - 1) % n_);
    rng.fill(val_, 0.01, 1.0);
    rng.fill(x_, 0.01, 1.0);
  }
  void call() override {
    spmv(n_, row_ptr_.data(), col_.data(), val_.data(), x_.data(), y_.data());
  }

 private:
  long n_;
  kopt_bench::Array<int64_t> row_ptr_;
  kopt_bench::Array<int32_t> col_;
  kopt_bench::Array<double> val_, x_, y_;
  std::vector<int32_t> scratch_;  // The long rows' sort (never the kernel's).
};

int main(int argc, char** argv) {
  return kopt_bench::main<Spmv>(argc, argv);
}
