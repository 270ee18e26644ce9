// Gaussian elimination without the partial pivoting kernel.h specifies: the driver's systems
// are diagonally dominant, so skipping the pivot search (and its row swaps) never shows there;
// a zero on the diagonal, which kernel.h allows, divides by zero (NaN), and a tiny one gives a
// finite wrong answer: which edge case a check meets first is drawn, so either names it.
// expect: nan|wrong
#include "kernel.h"

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  double m[16][17];
  for (long s = 0; s < count; ++s) {
    for (int r = 0; r < k; ++r) {
      for (int c = 0; c < k; ++c) m[r][c] = a[(s * k + r) * k + c];
      m[r][k] = b[s * k + r];
    }
    for (int col = 0; col < k; ++col)
      for (int r = col + 1; r < k; ++r) {
        const double factor = m[r][col] / m[col][col];
        for (int c = col; c <= k; ++c) m[r][c] -= factor * m[col][c];
      }
    for (int r = k - 1; r >= 0; --r) {
      double sum = m[r][k];
      for (int c = r + 1; c < k; ++c) sum -= m[r][c] * x[s * k + c];
      x[s * k + r] = sum / m[r][r];
    }
  }
}
