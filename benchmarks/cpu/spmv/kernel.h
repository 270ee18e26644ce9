// Sparse matrix-vector product y = A * x for a square rows x rows matrix A in CSR form: the
// entries of row i are val[k] at column col[k] for k in [row_ptr[i], row_ptr[i + 1]).
#pragma once

#include <cstdint>

// val and x are positive. A row may be empty (y[i] = 0); the columns of a row may come in
// any order and repeat (repeated entries are summed). row_ptr[0] need not be 0 (the rows may
// be a window of a larger matrix's). 1 <= rows <= 4000000 (size.max).
void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y);
