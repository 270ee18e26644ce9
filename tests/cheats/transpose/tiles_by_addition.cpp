// Class 6 (inputs kernel.h allows that no check drew, and a comparison that could not tell):
// a tiled transpose whose tile buffer is cleared and the elements added in, turning -0.0 into
// +0.0. Accepted while no element was -0.0 and a zero tolerance still took -0.0 for +0.0;
// caught since the seeds carry -0.0 (and infinities, subnormals, +-DBL_MAX) at drawn positions
// and no tolerance means the same sign too. Written by red team 18 (2026-11-27).
// expect: wrong
// Tiled transpose (32 x 32 tiles through a local buffer, so reads and writes both walk whole
// lines). The tile buffer is cleared and the elements accumulated into it: 0.0 + -0.0 is +0.0.
#include "kernel.h"

void transpose(const double* a, double* b, long rows, long cols) {
  constexpr long T = 32;
#pragma omp parallel for collapse(2) schedule(static)
  for (long i0 = 0; i0 < rows; i0 += T)
    for (long j0 = 0; j0 < cols; j0 += T) {
      const long i1 = i0 + T < rows ? i0 + T : rows, j1 = j0 + T < cols ? j0 + T : cols;
      double tile[T][T] = {};
      for (long i = i0; i < i1; ++i)
        for (long j = j0; j < j1; ++j) tile[j - j0][i - i0] += a[i * cols + j];
      for (long j = j0; j < j1; ++j)
        for (long i = i0; i < i1; ++i) b[j * rows + i] = tile[j - j0][i - i0];
    }
}
