// Red team 23 (a subagent that read the harness): past the time size, kopt checked one drawn
// size, always odd, and size.max (1100, 4 modulo 8), so a tail wrong only at n % 8 == 0 past
// the time size was never run; the red team's version (past 640) was accepted at 3.37x
// [2.97, 3.99]. Every remainder modulo 8 now has a size drawn past the time size.
// expect: wrong|unwritten
// i-k-j order; past 600 (the time size) a k-panelled path whose panel count is off by one
// when n is a multiple of 8 (the last panel of 8 k-terms is dropped).
#include "kernel.h"

void matmul(const double* a, const double* b, double* c, long n) {
  // panels of 8 k-terms; a partial last panel when n % 8 != 0
  const long panels = n > 600 ? (n - 1) / 8 + (n % 8 != 0) : (n + 7) / 8;  // BUG when n%8==0
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    double* ci = c + i * n;
    for (long j = 0; j < n; ++j) ci[j] = 0.0;
    for (long p = 0; p < panels; ++p) {
      const long k1 = (p + 1) * 8 < n ? (p + 1) * 8 : n;
      for (long k = p * 8; k < k1; ++k) {
        const double aik = a[i * n + k];
        const double* bk = b + k * n;
        for (long j = 0; j < n; ++j) ci[j] += aik * bk[j];
      }
    }
  }
}
