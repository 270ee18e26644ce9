// Dense matrix product C = A * B of row-major n x n matrices of doubles.
#pragma once

void matmul(const double* a, const double* b, double* c, long n);
