#include <utility>

#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: an n x (n + 1) matrix of floats (not square, so swapped dimensions show).
class Transpose : public cuda::Problem {
 public:
  explicit Transpose(long n)
      : rows_(n), cols_(n + 1), in_host_(rows_ * cols_), in_(rows_ * cols_), out_(rows_ * cols_) {
    output("out", out_);
  }
  void fill(Rng& rng) override {
    rng.fill(in_host_, -1.0, 1.0);
    in_.upload(in_host_);
    shape_ = {rows_, cols_};
  }
  // Other shapes of the same element count: one column, one row, the transposed shape.
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    fill(rng);
    const long total = rows_ * cols_;
    if (k == 0) shape_ = {total, 1};
    if (k == 1) shape_ = {1, total};
    if (k == 2) shape_ = {cols_, rows_};
  }
  void call() override { transpose(in_.data(), out_.data(), shape_.first, shape_.second); }

 private:
  long rows_, cols_;
  std::vector<float> in_host_;
  cuda::DeviceBuffer<float> in_, out_;
  std::pair<long, long> shape_{rows_, cols_};
};

int main(int argc, char** argv) {
  return cuda::main<Transpose>(argc, argv);
}
