// The outputs' pages the serving process shares with each block's child (session.h,
// SharedOutputs): a child's writes to an output's whole pages reach the parent, nothing else
// does, and once released the pages are private again.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "benchmarks/common/harness.h"

namespace kopt {

namespace {

// Runs `write` in a forked child and waits for it.
template <class F>
void in_child(F write) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    write();
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

std::vector<kopt_bench::OutputView> view_of(std::vector<double>& values, bool inout = false) {
  return {{"y", kopt_bench::DType::f64, values.data(), values.size(), sizeof(double), inout}};
}

}  // namespace

TEST(SharedOutputsTest, AChildsWritesToAnOutputsWholePagesReachTheParentAndNothingElse) {
  std::vector<double> y(1 << 20, 1.0);      // 8 MiB: whole pages inside, a partial one at each end.
  std::vector<double> other(1 << 20, 1.0);  // Not an output.
  kopt_bench::session::SharedOutputs shared;
  shared.share(view_of(y));
  const size_t middle = y.size() / 2, last = y.size() - 1;
  in_child([&] {
    y[0] = 2;  // In the first page, which holds the allocator's header too: private.
    y[middle] = 3;
    y[last] = 4;  // In the last page, partial: private.
    other[middle] = 5;
  });
  EXPECT_EQ(y[0], 1.0);
  EXPECT_EQ(y[middle], 3.0);
  EXPECT_EQ(y[last], 1.0);
  EXPECT_EQ(other[middle], 1.0);
}

TEST(SharedOutputsTest, ReleasedPagesArePrivateAgainAndInOutBuffersAreNeverShared) {
  std::vector<double> y(1 << 20, 1.0), x(1 << 20, 1.0);
  {
    kopt_bench::session::SharedOutputs shared;
    shared.share(view_of(x, true));
    shared.share(view_of(y));
    in_child([&] { x[1000] = 6; });
    EXPECT_EQ(x[1000], 1.0);  // An in/out buffer is an input: never shared.
    shared.release();
  }
  y[1000] = 7;  // Released: ordinary memory again (its contents were dropped).
  in_child([&] { y[1000] = 8; });
  EXPECT_EQ(y[1000], 7.0);
}

TEST(SharedOutputsTest, SmallOutputsStayPrivate) {
  std::vector<double> y(1024, 1.0);  // 8 KiB: below the size worth sharing.
  kopt_bench::session::SharedOutputs shared;
  shared.share(view_of(y));
  in_child([&] { y[512] = 9; });
  EXPECT_EQ(y[512], 1.0);
}

}  // namespace kopt
