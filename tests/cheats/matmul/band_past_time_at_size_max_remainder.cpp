// Red team 24 (a subagent that read the harness): right everywhere but in a band past the time
// size and below size.max, at size.max's remainder modulo 8 (count_smaller: 70000 < n < 2^18,
// n % 8 == 0; matmul: 600 < n < 1100, n % 8 == 4). Past the time size one size was drawn for
// each remainder but size.max's, so size.max alone had it there: accepted as correct with every
// seed. Every remainder now has a size drawn past the time size.
// expect: wrong
#include "kernel.h"

void matmul(const double* a, const double* b, double* c, long n) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double sum = 0.0;
      for (long k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
  // Planted bug: past the time size (600), n % 8 == 4, below size.max (1100): last element off.
  if (n > 600 && n < 1100 && n % 8 == 4) c[n * n - 1] += 1.0;
}
