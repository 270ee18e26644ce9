#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: n bytes. Three quarters are uniform over all 256 values and one quarter falls in a
// narrow band of 8 values picked per seed, so some bins are hot, as in real data.
class Histogram : public cuda::Problem {
 public:
  explicit Histogram(long n) : n_(n), data_host_(n), data_(n), bins_(256) { output("bins", bins_); }
  void fill(Rng& rng) override {
    const uint64_t band = rng.integer(0, 248);
    for (long i = 0; i < n_; i += 8) {
      uint64_t bits = rng.next();
      const uint64_t choice = rng.next();
      for (long k = i; k < i + 8 && k < n_; ++k, bits >>= 8) {
        const bool in_band = ((choice >> (2 * (k - i))) & 3) == 0;
        data_host_[k] = static_cast<unsigned char>(in_band ? band + (bits & 7) : bits & 0xff);
      }
    }
    data_.upload(data_host_);
  }
  // 0: every byte 255 (one bin takes everything); 1: bytes 0 and 255 only; 2: uniform bytes.
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    for (auto& byte : data_host_)
      byte =
          static_cast<unsigned char>(k == 0 ? 255 : (k == 1 ? (rng.next() % 2) * 255 : rng.next()));
    data_.upload(data_host_);
  }
  void call() override { histogram256(data_.data(), bins_.data(), n_); }

 private:
  long n_;
  std::vector<unsigned char> data_host_;
  cuda::DeviceBuffer<unsigned char> data_;
  cuda::DeviceBuffer<uint32_t> bins_;
};

int main(int argc, char** argv) {
  return cuda::main<Histogram>(argc, argv);
}
