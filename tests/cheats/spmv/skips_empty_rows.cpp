// Walks the nonzeros once and stores each row's sum when its last entry is passed, which
// needs no row loop at all: every row of the driver's matrices has at least one entry. An
// empty row, which CSR and kernel.h allow, is never written.
// It also walks from entry 0, not from row_ptr[0], so a window of a larger matrix comes out
// wrong: which of the two the check meets first depends on its drawn order.
// expect: unwritten|wrong
#include "kernel.h"

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  long row = 0;
  double sum = 0.0;
  for (int64_t k = 0; k < row_ptr[rows]; ++k) {
    while (row_ptr[row + 1] <= k) ++row;
    sum += val[k] * x[col[k]];
    if (k + 1 == row_ptr[row + 1]) {
      y[row] = sum;
      sum = 0.0;
    }
  }
}
