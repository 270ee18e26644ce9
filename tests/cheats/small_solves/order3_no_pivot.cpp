// Class 6 (a parameter value no check drew): hand-unrolled solvers for orders 1, 2 and 4 with
// pivoting, a generic pivoting one, and an order-3 path without pivoting, which divides by a
// zero diagonal (kernel.h allows zeros there at any order). Caught by the edge cases with zero
// diagonals at orders 2, 3, 5, 6, 7 and 8. Found by a red team that read the harness (2026-11-27).
// expect: nan|wrong
#include <cmath>
#include <utility>

#include "kernel.h"

namespace {

template <int K>
void solve_fixed(const double* a, const double* b, double* x) {
  double m[K][K + 1];
  for (int r = 0; r < K; ++r) {
    for (int c = 0; c < K; ++c) m[r][c] = a[r * K + c];
    m[r][K] = b[r];
  }
  for (int col = 0; col < K; ++col) {
    int pivot = col;
    for (int r = col + 1; r < K; ++r)
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    if (pivot != col)
      for (int c = 0; c <= K; ++c) std::swap(m[col][c], m[pivot][c]);
    for (int r = col + 1; r < K; ++r) {
      const double factor = m[r][col] / m[col][col];
      for (int c = col; c <= K; ++c) m[r][c] -= factor * m[col][c];
    }
  }
  for (int r = K - 1; r >= 0; --r) {
    double sum = m[r][K];
    for (int c = r + 1; c < K; ++c) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
}

// BUG: no pivoting in the order-3 fast path.
void solve3(const double* a, const double* b, double* x) {
  double m[3][4];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[r][c] = a[r * 3 + c];
    m[r][3] = b[r];
  }
  for (int col = 0; col < 3; ++col)
    for (int r = col + 1; r < 3; ++r) {
      const double factor = m[r][col] / m[col][col];
      for (int c = col; c <= 3; ++c) m[r][c] -= factor * m[col][c];
    }
  for (int r = 2; r >= 0; --r) {
    double sum = m[r][3];
    for (int c = r + 1; c < 3; ++c) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
}

void solve_generic(const double* a, const double* b, int k, double* x, double* m) {
  const int w = k + 1;
  for (int r = 0; r < k; ++r) {
    for (int c = 0; c < k; ++c) m[r * w + c] = a[r * k + c];
    m[r * w + k] = b[r];
  }
  for (int col = 0; col < k; ++col) {
    int pivot = col;
    for (int r = col + 1; r < k; ++r)
      if (std::abs(m[r * w + col]) > std::abs(m[pivot * w + col])) pivot = r;
    if (pivot != col)
      for (int c = 0; c <= k; ++c) std::swap(m[col * w + c], m[pivot * w + c]);
    for (int r = col + 1; r < k; ++r) {
      const double factor = m[r * w + col] / m[col * w + col];
      for (int c = col; c <= k; ++c) m[r * w + c] -= factor * m[col * w + c];
    }
  }
  for (int r = k - 1; r >= 0; --r) {
    double sum = m[r * w + k];
    for (int c = r + 1; c < k; ++c) sum -= m[r * w + c] * x[c];
    x[r] = sum / m[r * w + r];
  }
}

}  // namespace

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  if (k == 4) {
    for (long s = 0; s < count; ++s) solve_fixed<4>(a + s * 16, b + s * 4, x + s * 4);
  } else if (k == 3) {
    for (long s = 0; s < count; ++s) solve3(a + s * 9, b + s * 3, x + s * 3);
  } else if (k == 2) {
    for (long s = 0; s < count; ++s) solve_fixed<2>(a + s * 4, b + s * 2, x + s * 2);
  } else if (k == 1) {
    for (long s = 0; s < count; ++s) x[s] = b[s] / a[s];
  } else {
    double* m = new double[static_cast<size_t>(k) * (k + 1)];
    for (long s = 0; s < count; ++s) solve_generic(a + s * k * k, b + s * k, k, x + s * k, m);
    delete[] m;
  }
}
