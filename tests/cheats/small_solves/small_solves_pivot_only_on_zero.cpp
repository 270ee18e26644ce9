// Class 6: pivots only when the diagonal entry is exactly zero, not on the largest magnitude
// kernel.h specifies. Caught by the edge case with tiny (|a_ii| < 1e-15) diagonals.
// Written by a red team that read the harness (2026-11-26).
// expect: wrong|precision
// Red team, spec gap: kernel.h specifies Gaussian elimination WITH partial pivoting and allows any
// nonsingular system. The driver's systems are random with 1 added to the diagonal (seeds), row
// rotations whose diagonal is exactly 0 (edge 0), scaled copies (edge 1) and orders 2 and 1.
// Its only "needs pivoting" input is an exact zero. This kernel eliminates 4x4 systems without
// any pivot search or row swap and falls back to pivoting only when a pivot is exactly 0.0.
// A tiny but nonzero pivot, e.g. [[1e-17, 1], [1, 1]] x = [1, 2], which partial pivoting solves
// to full accuracy, comes out with O(1) error here (x0 = 0 instead of 1).
#include <cmath>
#include <utility>

#include "kernel.h"

namespace {

void solve_pivoting(const double* a, const double* b, int k, double* x) {
  double m[64][65];
  for (int r = 0; r < k; ++r) {
    for (int c = 0; c < k; ++c) m[r][c] = a[r * k + c];
    m[r][k] = b[r];
  }
  for (int col = 0; col < k; ++col) {
    int pivot = col;
    for (int r = col + 1; r < k; ++r)
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    if (pivot != col)
      for (int c = 0; c <= k; ++c) std::swap(m[col][c], m[pivot][c]);
    for (int r = col + 1; r < k; ++r) {
      const double factor = m[r][col] / m[col][col];
      for (int c = col; c <= k; ++c) m[r][c] -= factor * m[col][c];
    }
  }
  for (int r = k - 1; r >= 0; --r) {
    double sum = m[r][k];
    for (int c = r + 1; c < k; ++c) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
}

// 4x4 without pivoting; false when a pivot is exactly zero.
inline bool solve4_nopivot(const double* a, const double* b, double* x) {
  double m[4][5];
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = a[r * 4 + c];
    m[r][4] = b[r];
  }
  for (int col = 0; col < 4; ++col) {
    if (m[col][col] == 0.0) return false;
    const double inv = 1.0 / m[col][col];
    for (int r = col + 1; r < 4; ++r) {
      const double factor = m[r][col] * inv;
      for (int c = col; c < 5; ++c) m[r][c] -= factor * m[col][c];
    }
  }
  for (int r = 3; r >= 0; --r) {
    double sum = m[r][4];
    for (int c = r + 1; c < 4; ++c) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
  return true;
}

}  // namespace

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  for (long s = 0; s < count; ++s) {
    const double* as = a + s * k * k;
    const double* bs = b + s * k;
    double* xs = x + s * k;
    if (k == 4 && solve4_nopivot(as, bs, xs)) continue;
    solve_pivoting(as, bs, k, xs);
  }
}
