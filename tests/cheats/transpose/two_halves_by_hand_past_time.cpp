// Other thread counts past the time size: past the time size's element count (2400 x 3601) the
// rows are split by hand between OpenMP threads 0 and 1, one half each, as on a 2-core machine;
// with one thread the second half is never written. kernel.h promises the result at any thread
// count up to 256. Red team 25: accepted while the re-checks at 1, 7 and 256 threads stopped at
// the time size; each count now also checks one size drawn past it (another for each count).
// expect: unwritten
#include <omp.h>

#include "kernel.h"

namespace {
void rows_range(const double* a, double* b, long rows, long cols, long lo, long hi) {
  constexpr long T = 32;
  for (long ii = lo; ii < hi; ii += T)
    for (long jj = 0; jj < cols; jj += T) {
      const long ie = ii + T < hi ? ii + T : hi, je = jj + T < cols ? jj + T : cols;
      for (long i = ii; i < ie; ++i)
        for (long j = jj; j < je; ++j) b[j * rows + i] = a[i * cols + j];
    }
}
}  // namespace

void transpose(const double* a, double* b, long rows, long cols) {
  if (rows * cols > 2400L * 3601L) {
#pragma omp parallel
    {
      const long t = omp_get_thread_num();
      if (t < 2) rows_range(a, b, rows, cols, t * rows / 2, (t + 1) * rows / 2);
    }
    return;
  }
#pragma omp parallel for
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) b[j * rows + i] = a[i * cols + j];
}
