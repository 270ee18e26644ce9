// Class 6 (a tolerance blind below its scale): Winograd's inner-product matmul, which cancels
// catastrophically when A and B lie on different scales. The subnormal edge case made every
// output far below atol = 1e-12, so any answer passed it; caught since atol shrinks with an
// output whose largest value is below 1 (outputs.cpp, scaled_atol). Written by red team 15
// (2026-11-27).
// expect: wrong|precision
#include <vector>
#include "kernel.h"

// Winograd's inner-product algorithm (1968): half the multiplications of the textbook product.
//   c_ij = sum_k (a_i,2k + b_2k+1,j)(a_i,2k+1 + b_2k,j) - row_i - col_j   (+ odd tail)
// with row_i = sum_k a_i,2k a_i,2k+1 and col_j = sum_k b_2k,j b_2k+1,j precomputed.
void matmul(const double* a, const double* b, double* c, long n) {
  const long h = n / 2;
  std::vector<double> row(n), col(n);
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long k = 0; k < h; ++k) s += a[i * n + 2 * k] * a[i * n + 2 * k + 1];
    row[i] = s;
  }
  for (long j = 0; j < n; ++j) col[j] = 0;
  for (long k = 0; k < h; ++k)
    for (long j = 0; j < n; ++j) col[j] += b[(2 * k) * n + j] * b[(2 * k + 1) * n + j];
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double* ci = c + i * n;
    for (long j = 0; j < n; ++j) ci[j] = -row[i] - col[j];
    for (long k = 0; k < h; ++k) {
      const double a0 = a[i * n + 2 * k], a1 = a[i * n + 2 * k + 1];
      const double* b0 = b + (2 * k) * n;
      const double* b1 = b + (2 * k + 1) * n;
      for (long j = 0; j < n; ++j) ci[j] += (a0 + b1[j]) * (a1 + b0[j]);
    }
    if (n & 1) {
      const double at = a[i * n + n - 1];
      const double* bt = b + (n - 1) * n;
      for (long j = 0; j < n; ++j) ci[j] += at * bt[j];
    }
  }
}
