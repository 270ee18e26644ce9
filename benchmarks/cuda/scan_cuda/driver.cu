#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: n 32-bit unsigned integers, uniform over all values (so sums wrap around).
class Scan : public cuda::Problem {
 public:
  explicit Scan(long n) : n_(n), in_host_(n), in_(n), out_(n) { output("out", out_); }
  void fill(Rng& rng) override {
    for (auto& v : in_host_) v = static_cast<uint32_t>(rng.next() >> 32);
    in_.upload(in_host_);
  }
  // 0: every value 0xffffffff (the sums wrap around); 1: all zeros; 2: all ones.
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    (void)rng;
    for (auto& v : in_host_) v = k == 0 ? 0xffffffffu : (k == 1 ? 0u : 1u);
    in_.upload(in_host_);
  }
  void call() override { inclusive_scan(in_.data(), out_.data(), n_); }

 private:
  long n_;
  std::vector<uint32_t> in_host_;
  cuda::DeviceBuffer<uint32_t> in_, out_;
};

int main(int argc, char** argv) {
  return cuda::main<Scan>(argc, argv);
}
