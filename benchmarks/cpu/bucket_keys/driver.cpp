#include <algorithm>
#include <cfloat>
#include <cmath>

#include "harness.h"
#include "kernel.h"

// Size n: n keys in [-1000, 1000) on a grid of 1/64 (so equal keys occur; one in 64 off it, one in
// 512 up to +-1e12), and 200 splitters sampled from the keys with replacement, sorted.
class BucketKeys : public kopt_bench::Problem {
 public:
  static constexpr int kSplitters = 200, kMaxSplitters = 65536;
  explicit BucketKeys(long n) : n_(n), keys_(n), bucket_(n), counts_(kMaxSplitters + 1) {
    output("bucket", bucket_);
    output("counts", counts_);
  }
  // One key in 64 (at drawn positions) off the grid and one in 512 beyond +-1000 (up to +-1e12):
  // a kernel that samples a few keys to decide they lie on the grid (and looks them up in a
  // table of it) meets one off it in the calls where it decided so.
  void fill(kopt_bench::Rng& rng) override {
    for (double& key : keys_) key = static_cast<double>(rng.integer(-64000, 63999)) / 64.0;
    for (long k = 0; k < (n_ + 63) / 64; ++k)
      keys_[rng.integer(0, n_ - 1)] = rng.uniform(-1000, 1000);
    for (long k = 0; k < n_ / 512; ++k) keys_[rng.integer(0, n_ - 1)] = rng.uniform(-1e12, 1e12);
    sample_splitters(rng, kSplitters);
  }
  // 0: keys anywhere (off the 1/64 grid, beyond +-1000, up to +-1e12), splitters among them;
  // 1: every key and every splitter equal; 2: few distinct keys, many duplicate splitters;
  // 3: 7 splitters (the rest of counts is left alone); 4: 65536 splitters (a bucket index past
  // 16 bits) half the time, else a number drawn log-uniformly from 256..65536 (past any fixed-depth
  // search a reader of this file might size: a depth-11 search, right up to 2047, fails in 5 draws
  // of 8); 5: no splitter (every key in bucket 0); 6: keys and splitters of both signed zeros and a
  // few small values (-0.0 and +0.0 compare equal); 7 + b for b in 0..7: a number of splitters
  // drawn log-uniformly from band b, [4^b, 4^(b+1)) (the last up to 65536). One draw in each band
  // at every size checked: a kernel wrong for a range of counts (a separate path for 8 to 127
  // splitters with < instead of <=) meets a count in that range at every size, not in a quarter
  // of the draws of one case spread over 1..65536.
  static constexpr int kCountBands = 8;
  int edge_cases() const override { return 7 + kCountBands; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    if (k == 6) return fill_signed_zeros(rng);
    if (k >= 7) {
      fill(rng);
      const double lo = std::pow(4.0, k - 7), hi = std::min(4.0 * lo, kMaxSplitters + 1.0);
      const int count = static_cast<int>(std::exp(rng.uniform(std::log(lo), std::log(hi))));
      return sample_splitters(rng, std::clamp(count, static_cast<int>(lo), kMaxSplitters));
    }
    if (k >= 3) {
      fill(rng);
      const int count =
          k == 3 ? 7
                 : (k == 4 ? (rng.next() % 2
                                  ? kMaxSplitters
                                  : static_cast<int>(256 * std::pow(256.0, rng.uniform(0, 1))))
                           : 0);
      sample_splitters(rng, count);
      return;
    }
    for (double& key : keys_) {
      if (k == 0) key = rng.uniform(-1000, 1000) * (rng.next() % 8 ? 1.0 : 1e9);
      if (k == 0 && rng.next() % 16 == 0)  // Up to the largest finite double, either sign.
        key = std::copysign(rng.next() % 4 ? std::pow(10.0, rng.uniform(12, 308)) : DBL_MAX, key);
      if (k == 1) key = 2.5;
      if (k == 2) key = -static_cast<double>(rng.integer(0, 3));
    }
    sample_splitters(rng, kSplitters);
  }
  void call() override {
    classify_keys(keys_.data(), n_, splitters_.data(), nsplit_, bucket_.data(), counts_.data());
  }

 private:
  // Keys from {-0.0, +0.0, -1, 1}, splitters among them with the sign of each zero redrawn.
  void fill_signed_zeros(kopt_bench::Rng& rng) {
    static constexpr double kValues[] = {-0.0, 0.0, -1.0, 1.0};
    for (double& key : keys_) key = kValues[rng.integer(0, 3)];
    sample_splitters(rng, kSplitters);
    for (int i = 0; i < nsplit_; ++i)
      if (splitters_[i] == 0.0) splitters_[i] = rng.next() % 2 ? 0.0 : -0.0;
  }

  // `count` sorted splitters sampled from the keys.
  void sample_splitters(kopt_bench::Rng& rng, int count) {
    nsplit_ = count;
    splitters_.assign(static_cast<size_t>(std::max(count, 1)), 0.0);
    splitters_.shrink_to_fit();  // Its end against its guard page, if it has one (arrays.h).
    for (int i = 0; i < count; ++i) splitters_[i] = keys_[rng.integer(0, n_ - 1)];
    std::sort(splitters_.begin(), splitters_.begin() + count);
  }

  long n_;
  kopt_bench::Array<double> keys_, splitters_;
  kopt_bench::Array<int32_t> bucket_;
  kopt_bench::Array<int64_t> counts_;
  int nsplit_ = kSplitters;
};

int main(int argc, char** argv) {
  return kopt_bench::main<BucketKeys>(argc, argv);
}
