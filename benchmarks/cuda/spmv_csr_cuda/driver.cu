#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: an n x n sparse matrix with 0 to 64 entries per row (32 on average) at uniformly
// random columns, and a vector of n floats. The pattern is drawn per seed; the arrays are
// sized for the most entries the pattern can have, so their addresses never change.
class Spmv : public cuda::Problem {
 public:
  static constexpr int kMaxPerRow = 64;

  explicit Spmv(long n)
      : n_(n),
        starts_host_(n + 1),
        x_host_(n),
        starts_(n + 1),
        columns_(n * kMaxPerRow),
        values_(n * kMaxPerRow),
        x_(n),
        y_(n) {
    output("y", y_);
  }
  void fill(Rng& rng) override {
    starts_host_[0] = 0;
    for (long i = 0; i < n_; ++i)
      starts_host_[i + 1] = starts_host_[i] + static_cast<int>(rng.integer(0, kMaxPerRow));
    const long entries = starts_host_[n_];
    std::vector<int> columns(entries);
    std::vector<float> values(entries);
    for (long k = 0; k < entries; ++k) {
      columns[k] = static_cast<int>(rng.integer(0, n_ - 1));
      values[k] = static_cast<float>(rng.uniform(-1.0, 1.0));
    }
    rng.fill(x_host_, -1.0, 1.0);
    upload(columns, values);
  }
  // 0: every entry of the matrix in one row, the others empty; 1: every row empty (y = 0);
  // 2: every entry in column 0 (one column repeated in every row).
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    const long dense = rng.integer(0, n_ - 1);
    starts_host_[0] = 0;
    for (long i = 0; i < n_; ++i) {
      long len = rng.integer(0, kMaxPerRow);
      if (k == 0) len = i == dense ? n_ * kMaxPerRow : 0;
      if (k == 1) len = 0;
      starts_host_[i + 1] = starts_host_[i] + static_cast<int>(len);
    }
    const long entries = starts_host_[n_];
    std::vector<int> columns(entries);
    std::vector<float> values(entries);
    for (long e = 0; e < entries; ++e) {
      columns[e] = k == 2 ? 0 : static_cast<int>(rng.integer(0, n_ - 1));
      values[e] = static_cast<float>(rng.uniform(-1.0, 1.0));
    }
    rng.fill(x_host_, -1.0, 1.0);
    upload(columns, values);
  }
  void call() override {
    spmv_csr(starts_.data(), columns_.data(), values_.data(), x_.data(), y_.data(), n_);
  }

 private:
  void upload(const std::vector<int>& columns, const std::vector<float>& values) {
    starts_.upload(starts_host_);
    KOPT_CUDA_CHECK(cudaMemcpy(columns_.data(), columns.data(), columns.size() * sizeof(int),
                               cudaMemcpyHostToDevice));
    KOPT_CUDA_CHECK(cudaMemcpy(values_.data(), values.data(), values.size() * sizeof(float),
                               cudaMemcpyHostToDevice));
    x_.upload(x_host_);
  }

  long n_;
  std::vector<int> starts_host_;
  std::vector<float> x_host_;
  cuda::DeviceBuffer<int> starts_, columns_;
  cuda::DeviceBuffer<float> values_, x_, y_;
};

int main(int argc, char** argv) {
  return cuda::main<Spmv>(argc, argv);
}
