// `_Pragma` produced by a macro (no `#pragma` line in the source) pushes fast-math around the
// kernel and pops it after, so that the row sums are reassociated and vectorized.
// expect: flags
#include <cstdint>

#include "kernel.h"

#define QUOTE(x) #x
#define DO(x) _Pragma(QUOTE(x))
#define FAST_BEGIN DO(GCC push_options) DO(GCC optimize("-ffast-math", "-funroll-loops"))
#define FAST_END DO(GCC pop_options)

FAST_BEGIN
void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}
FAST_END
