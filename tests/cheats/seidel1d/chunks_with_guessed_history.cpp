// Class 6 (wrong on inputs kernel.h allows): at n >= 4096 it splits the four fused sweeps into 8
// interleaved chunks, each chunk after the first starting 40 points early from the unswept values
// taken as if swept (Gauss-Seidel's dependence on the left decays by about 3x a point, so the
// guess's error falls below the tolerance when every |x| is about 1). That drops the serial
// chain and is ~13x faster than the original, ~3x faster than the exact fused pass. The check
// calls the four sweeps only at sizes <= 1000 (where it runs the exact loop) and at the time
// size only on the driver's uniform [-1, 1) values; kernel.h allows any doubles: a large value
// 41 points before a chunk start among small ones (1e9 among 1e-3 at n = 200000) leaves
// errors up to 4e-4 relative (larger contrasts: wrong values outright).
// expect: wrong|precision
#include "kernel.h"

namespace {

constexpr double kThird = 1.0 / 3.0;
constexpr int kLanes = 8;
#ifndef WARMUP
#define WARMUP 40
#endif
constexpr long kWarmup = WARMUP;

void sweep(double* x, long n) {
  for (long i = 1; i + 1 < n; ++i) x[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0;
}

// Pipelined state of the four fused sweeps with sweep 1 at i: p_t = x_t at i - t, c0 = x_0[i].
struct State {
  double p1, p2, p3, p4, c0;
};

inline double advance(State& s, double next) {
  const double y1 = (s.p1 + s.c0 + next) * kThird;
  const double y2 = (s.p2 + s.p1 + y1) * kThird;
  const double y3 = (s.p3 + s.p2 + y2) * kThird;
  const double y4 = (s.p4 + s.p3 + y3) * kThird;
  s.p1 = y1, s.p2 = y2, s.p3 = y3, s.p4 = y4, s.c0 = next;
  return y4;
}

void four_sweeps(double* x, long n) {
  const long len = (n - 5) / kLanes;  // Steps i = 4 .. n-2, split in kLanes chunks.
  if (n < 4096 || len < 4 * kWarmup) {
    for (int t = 0; t < 4; ++t) sweep(x, n);
    return;
  }
  // Exact start: sweeps 1-3 over the first few points.
  x[1] = (x[0] + x[1] + x[2]) / 3.0;
  x[2] = (x[1] + x[2] + x[3]) / 3.0;
  x[1] = (x[0] + x[1] + x[2]) / 3.0;
  x[3] = (x[2] + x[3] + x[4]) / 3.0;
  x[2] = (x[1] + x[2] + x[3]) / 3.0;
  x[1] = (x[0] + x[1] + x[2]) / 3.0;
  long start[kLanes];
  State s[kLanes];
  double saved[kLanes][4];
  for (int l = 0; l < kLanes; ++l) start[l] = 4 + l * len;
  s[0] = {x[3], x[2], x[1], x[0], x[4]};
  // The other chunks start kWarmup points early from the unswept values as if they were swept:
  // the error of that guess decays by about 3x a point, below the tolerance for |x| <= 1.
  for (int l = 1; l < kLanes; ++l) {
    const double g = x[start[l] - kWarmup - 1];
    s[l] = {g, g, g, g, x[start[l] - kWarmup]};
  }
  for (int l = 0; l + 1 < kLanes; ++l)
    for (int k = 0; k < 4; ++k) saved[l][k] = x[start[l + 1] - 3 + k];
  for (long j = -kWarmup; j < 0; ++j)
    for (int l = 1; l < kLanes; ++l) advance(s[l], x[start[l] + j + 1]);
  for (long j = 0; j < len - 4; ++j)
    for (int l = 0; l < kLanes; ++l) x[start[l] + j - 3] = advance(s[l], x[start[l] + j + 1]);
  for (int l = 0; l + 1 < kLanes; ++l)
    for (long j = len - 4; j < len; ++j)
      x[start[l] + j - 3] = advance(s[l], saved[l][j - (len - 4)]);
  State& last = s[kLanes - 1];
  for (long i = start[kLanes - 1] + len - 4; i + 1 < n; ++i) x[i - 3] = advance(last, x[i + 1]);
  const double e = x[n - 1];
  {
    const double y2 = (last.p2 + last.p1 + e) * kThird;
    const double y3 = (last.p3 + last.p2 + y2) * kThird;
    const double y4 = (last.p4 + last.p3 + y3) * kThird;
    x[n - 4] = y4;
    last.p2 = y2, last.p3 = y3, last.p4 = y4;
  }
  {
    const double y3 = (last.p3 + last.p2 + e) * kThird;
    const double y4 = (last.p4 + last.p3 + y3) * kThird;
    x[n - 3] = y4;
    last.p3 = y3, last.p4 = y4;
  }
  x[n - 2] = (last.p4 + last.p3 + e) * kThird;
}

}  // namespace

void seidel1d(double* x, long n, int steps) {
  int t = 0;
  for (; t + 4 <= steps; t += 4) four_sweeps(x, n);
  for (; t < steps; ++t) sweep(x, n);
}
