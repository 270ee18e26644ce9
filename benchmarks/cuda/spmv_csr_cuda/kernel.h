// Sparse matrix-vector product y = A x for an n x n matrix A in CSR form: row i holds the
// entries values[k] at columns[k] for row_start[i] <= k < row_start[i+1] (row_start has n + 1
// entries, row_start[0] = 0; columns within a row are in no particular order and may repeat).
// All arrays are device memory from cudaMalloc. The function launches its work on the default
// stream and may return before it finishes.
#pragma once

void spmv_csr(const int* row_start, const int* columns, const float* values, const float* x,
              float* y, long n);
