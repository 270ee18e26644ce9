// In/out buffers in the benchmark harness: never poisoned, and restored to their fill before
// every call when the legacy modes call the kernel several times on one fill.
#include <gtest/gtest.h>

#include <cmath>

#include "benchmarks/common/harness.h"
#include "tools/eval/outputs.h"
#include "util/files.h"

namespace kopt {

namespace {

// Doubles every element in place and counts its calls; y is a plain output.
class InPlace : public kopt_bench::Problem {
 public:
  explicit InPlace(long n) : x_(n), y_(n) {
    inout("x", x_);
    output("y", y_);
  }
  void fill(kopt_bench::Rng& rng) override { rng.fill(x_, 1.0, 2.0); }
  void call() override {
    for (size_t i = 0; i < x_.size(); ++i) {
      x_[i] *= 2;
      y_[i] = x_[i] + 1;
    }
  }
  const std::vector<double>& x() const { return x_; }

 private:
  std::vector<double> x_, y_;
};

}  // namespace

TEST(HarnessInOutTest, PoisonLeavesInOutBuffersAndOnlyThem) {
  InPlace problem(16);
  kopt_bench::Rng rng(7);
  problem.fill(rng);
  const std::vector<double> filled = problem.x();
  kopt_bench::poison(problem.outputs());
  EXPECT_EQ(problem.x(), filled);
  const auto* y = static_cast<const double*>(problem.outputs()[1].data);
  EXPECT_TRUE(std::isnan(y[0])) << "a plain output is poisoned";
}

TEST(HarnessInOutTest, EveryTimedCallStartsFromTheSameFill) {
  TempDir dir("harness-inout-");
  InPlace problem(64);
  kopt_bench::Options o;
  o.seeds = {11};
  o.warmup = 2;
  o.reps = 4;
  o.capture = {0, 3};
  int threads = 0;
  {
    kopt_bench::OutputFile file((dir.path() / "out.bin").string());
    EXPECT_EQ(kopt_bench::run_time(problem, o, file, threads).size(), 4u);
  }
  auto records = read_outputs(dir.path() / "out.bin");
  ASSERT_TRUE(records.ok()) << records.error().message;
  ASSERT_EQ(records->size(), 2u);
  EXPECT_TRUE(identical((*records)[0], (*records)[1]))
      << "call 3 saw the result of call 2 instead of the fill";
  kopt_bench::Rng rng(11);
  InPlace fresh(64);
  fresh.fill(rng);
  const auto* x = reinterpret_cast<const double*>((*records)[0].arrays[0].bytes.data());
  EXPECT_EQ(x[5], 2 * fresh.x()[5]) << "one doubling of the fill, not seven";
}

}  // namespace kopt
