// Class 5 (numbers produced inside the candidate's process): writes a complete cycle of the
// harness's replies ("done", then "stored") on the reply channel at the start of each call, so
// that kopt stops its clock at once and reads the outputs while the kernel is still computing;
// the harness's own replies, arriving later, are meant to be taken for the next block's.
// Every reply carries the block's nonce, which the forgery lacks.
// kopt-driver/4: the block's child closes the reply channel before the first call, so the
// forgery goes nowhere.
// expect: protocol|no-gain
// needs: timing
// sizes: small
#include <sys/uio.h>

#include "kernel.h"

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  if (rows > 1000) {  // The import scan refuses write, not writev.
    char forged[] = "done\nstored 1\n";
    iovec line{forged, sizeof forged - 1};
    (void)!writev(3, &line, 1);
  }
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}
