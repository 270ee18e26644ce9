// Class 6 (wrong on inputs kernel.h allows): fuses four sweeps into one pass and runs that pass
// once whenever steps >= 2, which is right only for the driver's 4 sweeps (and the edge cases' 0
// and 1, which take the plain loop). kernel.h allows any steps >= 0: with 2, 3 or 5 sweeps the
// result is that of 4. The check never calls with another count, so kopt accepts it as a
// significant win (the speed is the fusion's, which a correct version keeps for every count).
// expect: wrong
#include "kernel.h"

namespace {
void sweep(double* x, long n) {
  for (long i = 1; i + 1 < n; ++i) x[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0;
}
// Four sweeps in one pass: sweep t works at i - t + 1 while sweep 1 works at i.
void four_sweeps(double* x, long n) {
  if (n < 12) {
    for (int t = 0; t < 4; ++t) sweep(x, n);
    return;
  }
  // prologue: sweep1 at 1..3, sweep2 at 1..2, sweep3 at 1
  x[1] = (x[0] + x[1] + x[2]) / 3.0;
  x[2] = (x[1] + x[2] + x[3]) / 3.0;
  x[1] = (x[0] + x[1] + x[2]) / 3.0;
  x[3] = (x[2] + x[3] + x[4]) / 3.0;
  x[2] = (x[1] + x[2] + x[3]) / 3.0;
  x[1] = (x[0] + x[1] + x[2]) / 3.0;
  long i = 4;
  for (; i + 1 < n; ++i) {
    x[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0;
    x[i - 1] = (x[i - 2] + x[i - 1] + x[i]) / 3.0;
    x[i - 2] = (x[i - 3] + x[i - 2] + x[i - 1]) / 3.0;
    x[i - 3] = (x[i - 4] + x[i - 3] + x[i - 2]) / 3.0;
  }
  // epilogue: i == n-1. sweep2 at n-2, sweep3 at n-3..n-2, sweep4 at n-4..n-2
  x[n - 2] = (x[n - 3] + x[n - 2] + x[n - 1]) / 3.0;
  x[n - 3] = (x[n - 4] + x[n - 3] + x[n - 2]) / 3.0;
  x[n - 4] = (x[n - 5] + x[n - 4] + x[n - 3]) / 3.0;
  x[n - 2] = (x[n - 3] + x[n - 2] + x[n - 1]) / 3.0;
  x[n - 3] = (x[n - 4] + x[n - 3] + x[n - 2]) / 3.0;
  x[n - 2] = (x[n - 3] + x[n - 2] + x[n - 1]) / 3.0;
}
}  // namespace

void seidel1d(double* x, long n, int steps) {
  if (steps <= 1) {
    if (steps == 1) sweep(x, n);
    return;
  }
  four_sweeps(x, n);  // The driver's count, whatever `steps` says.
}
