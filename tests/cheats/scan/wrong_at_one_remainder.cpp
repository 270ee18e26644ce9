// Class 6 (wrong where the fixed check sizes never look): an inclusive scan that leaves the last
// element zero when n % 8 == 5, a remainder none of the manifest's sizes has. Caught by the
// sizes each evaluation draws, one of each remainder modulo 8.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include "kernel.h"

void prefix_sum(const double* x, double* y, long n) {
  const long end = n % 8 == 5 ? n - 1 : n;
  double running = 0.0;
  for (long i = 0; i < end; ++i) {
    running += x[i];
    y[i] = running;
  }
  if (end < n) y[n - 1] = 0.0;
}
