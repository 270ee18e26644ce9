// Class 6 (wrong at a thread count never checked with hard inputs): a one-thread ping-pong
// path leaves an odd number of sweeps' result in scratch; odd sweep counts ran with the
// machine's thread count only. Caught by the edge cases in the re-check with 1 thread.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong|precision
#include <omp.h>

#include <algorithm>
#include <vector>

#include "kernel.h"

// Each sweep does 7 flops per point but moves 16 bytes (read a grid, write a grid): sweep by
// sweep, the kernel is bound by moving grids, not by arithmetic. So up to kFused sweeps run in
// one pass over memory (temporal blocking): each thread walks down its band of rows once, and
// every intermediate sweep lives only in three rolling rows per level (24 KiB a level at
// n = 1000, in L1/L2). Sweep l's row k needs sweep l-1's rows k-1..k+1, so at each row step the
// levels advance one row behind each other, a wavefront down the band. Near a band's edges the
// intermediate rows are computed by both neighbouring threads (overlapped tiling: up to
// depth - 1 extra rows per level and side), which keeps the threads independent within a
// pass. The driver's 10 sweeps are one pass: u0 is read once, u written once, scratch never
// touched. Every point is computed by the original's expression in the original's order, so
// the results are identical. Longer runs take several passes, alternating between u and
// scratch so that the last pass writes u.

namespace {

constexpr int kFused = 16;  // sweeps per pass over memory

// out[1..n-2] = one sweep of the row `mid` with its neighbours; out's ends are untouched.
void sweep_row(const double* up, const double* mid, const double* down, double* out, long n,
               double r) {
#pragma omp simd
  for (long j = 1; j < n - 1; ++j)
    out[j] = mid[j] + r * (up[j] + down[j] + mid[j - 1] + mid[j + 1] - 4.0 * mid[j]);
}

// One pass of `depth` sweeps from src to dst over the interior rows [r0, r1) of the calling
// thread's band. buf holds 3 rolling rows for each intermediate level 1..depth-1, whose end
// columns hold u0's boundary.
struct Pass {
  const double* u0;
  const double* src;
  double* dst;
  long n;
  int depth;
  double r;
  double* buf;  // 3 rows of n per level, level l's at (l - 1) * 3 * n

  // Row k of sweep `level` (level 0 = src); the boundary rows are u0's, held.
  const double* row(int level, long k) const {
    if (k == 0 || k == n - 1) return u0 + k * n;
    if (level == 0) return src + k * n;
    return buf + ((level - 1) * 3 + k % 3) * n;
  }
  double* target(int level, long k) const {
    return level == depth ? dst + k * n : buf + ((level - 1) * 3 + k % 3) * n;
  }

  void run(long r0, long r1) const {
    for (long i = r0 - (depth - 1); i < r1 + (depth - 1); ++i)
      for (int level = 1; level <= depth; ++level) {
        const long k = i - (level - 1);  // the row this level can compute now
        const long lo = std::max(1L, r0 - (depth - level)),
                   hi = std::min(n - 2, r1 - 1 + depth - level);
        if (k < lo || k > hi) continue;
        double* out = target(level, k);
        if (level < depth) {  // a rolling row's ends: u0's boundary columns of row k
          out[0] = u0[k * n];
          out[n - 1] = u0[k * n + n - 1];
        }
        sweep_row(row(level - 1, k - 1), row(level - 1, k), row(level - 1, k + 1), out, n, r);
      }
  }
};

// The grids' boundary (rows 0 and n-1, columns 0 and n-1) is u0's for every sweep.
void copy_boundary(const double* u0, double* g, long n, long i) {
  if (i == 0 || i == n - 1) {
    std::copy(u0 + i * n, u0 + (i + 1) * n, g + i * n);
  } else {
    g[i * n] = u0[i * n];
    g[i * n + n - 1] = u0[i * n + n - 1];
  }
}

}  // namespace

void jacobi2d(const double* u0, double* u, double* scratch, long n, int steps, double r) {
  if (omp_get_max_threads() == 1) {  // one thread: plain sweeps, ping-pong instead of copy-back
    std::copy(u0, u0 + n * n, u);
    std::copy(u0, u0 + n * n, scratch);
    double* a = u;
    double* b = scratch;
    for (int s = 0; s < steps; ++s) {
      for (long i = 1; i < n - 1; ++i)
        for (long j = 1; j < n - 1; ++j)
          b[i * n + j] =
              a[i * n + j] + r * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                                  a[i * n + j + 1] - 4.0 * a[i * n + j]);
      std::swap(a, b);
    }
    return;  // BUG: after an odd number of sweeps the result is in scratch, never copied to u
  }
  if (steps == 0 || n <= 2) {
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n * n; ++k) u[k] = u0[k];
    return;
  }
  const int passes = (steps + kFused - 1) / kFused;
  // Rolling rows for every thread, allocated here: a first allocation on a worker thread makes
  // glibc set up an arena, which reads /sys (a system call the harness forbids).
  const long per_thread = (kFused - 1) * 3 * n;
  std::vector<double> rolling(omp_get_max_threads() * per_thread);
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (long i = 0; i < n; ++i) {
      copy_boundary(u0, u, n, i);
      if (passes > 1) copy_boundary(u0, scratch, n, i);  // up to kFused sweeps never touch it
    }
    const int t = omp_get_thread_num(), threads = omp_get_num_threads();
    const long interior = n - 2;
    const long r0 = 1 + interior * t / threads, r1 = 1 + interior * (t + 1) / threads;
    const double* src = u0;
    for (int p = 0; p < passes; ++p) {
      // The last pass writes u; earlier ones alternate so that they end there.
      double* dst = (passes - 1 - p) % 2 == 0 ? u : scratch;
      const int depth = p == 0 ? steps - kFused * (passes - 1) : kFused;
#pragma omp barrier
      if (r0 < r1) Pass{u0, src, dst, n, depth, r, rolling.data() + t * per_thread}.run(r0, r1);
      src = dst;
    }
  }
}
