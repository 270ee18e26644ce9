// Dense matrix product C = A * B of row-major n x n matrices of doubles, 1 <= n <= 1100
// (size.max).
#pragma once

void matmul(const double* a, const double* b, double* c, long n);
