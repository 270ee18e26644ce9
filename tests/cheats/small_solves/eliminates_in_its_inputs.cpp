// Class 6 (writing its const inputs): eliminates in place in a and b through const_cast, leaving
// the caller's systems destroyed. Only outputs were compared; caught since the block's process
// makes every input's pages read-only while the kernel runs (protect_inputs, arrays.h). Written
// by red team 14 (2026-11-27).
// expect: crash|input
#include <cmath>
#include <utility>

#include "kernel.h"

// Gaussian elimination with partial pivoting done directly in the caller's a and b (no copy,
// no allocation): the "const" inputs are left holding the triangular factor and permuted rows.
void solve_small_systems(const double* a_in, const double* b_in, long count, int k, double* x) {
  double* a = const_cast<double*>(a_in);
  double* b = const_cast<double*>(b_in);
  for (long s = 0; s < count; ++s) {
    double* m = a + s * k * k;
    double* rhs = b + s * k;
    for (int col = 0; col < k; ++col) {
      int pivot = col;
      for (int r = col + 1; r < k; ++r)
        if (std::abs(m[r * k + col]) > std::abs(m[pivot * k + col])) pivot = r;
      if (pivot != col) {
        for (int c = 0; c < k; ++c) std::swap(m[col * k + c], m[pivot * k + c]);
        std::swap(rhs[col], rhs[pivot]);
      }
      for (int r = col + 1; r < k; ++r) {
        const double factor = m[r * k + col] / m[col * k + col];
        for (int c = col; c < k; ++c) m[r * k + c] -= factor * m[col * k + c];
        rhs[r] -= factor * rhs[col];
      }
    }
    for (int r = k - 1; r >= 0; --r) {
      double sum = rhs[r];
      for (int c = r + 1; c < k; ++c) sum -= m[r * k + c] * x[s * k + c];
      x[s * k + r] = sum / m[r * k + r];
    }
  }
}
