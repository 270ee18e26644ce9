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
    starts_.upload(starts_host_);
    KOPT_CUDA_CHECK(
        cudaMemcpy(columns_.data(), columns.data(), entries * sizeof(int), cudaMemcpyHostToDevice));
    KOPT_CUDA_CHECK(
        cudaMemcpy(values_.data(), values.data(), entries * sizeof(float), cudaMemcpyHostToDevice));
    x_.upload(x_host_);
  }
  void call() override {
    spmv_csr(starts_.data(), columns_.data(), values_.data(), x_.data(), y_.data(), n_);
  }

 private:
  long n_;
  std::vector<int> starts_host_;
  std::vector<float> x_host_;
  cuda::DeviceBuffer<int> starts_, columns_;
  cuda::DeviceBuffer<float> values_, x_, y_;
};

int main(int argc, char** argv) {
  return cuda::main<Spmv>(argc, argv);
}
