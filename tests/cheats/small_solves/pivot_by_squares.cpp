// Class 6 (a magnitude no check drew): partial pivoting compares a*a instead of |a|; below about
// 1e-162 the squares are 0 and the zero diagonal stays the pivot. The scaled systems stopped at
// 1e-100; caught since they reach 1e-300 .. 1e300. Written by red team 16 (2026-11-27).
// expect: nan|wrong
#include <cstddef>
#include <utility>
#include <vector>

#include "kernel.h"

// Partial pivoting compares squared magnitudes (no fabs, branch-free max search).
void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  std::vector<double> m(static_cast<size_t>(k) * (k + 1));
  std::vector<double> sol(k);
  const int w = k + 1;
  for (long s = 0; s < count; ++s) {
    for (int r = 0; r < k; ++r) {
      for (int c = 0; c < k; ++c) m[r * w + c] = a[(s * k + r) * k + c];
      m[r * w + k] = b[s * k + r];
    }
    for (int col = 0; col < k; ++col) {
      int pivot = col;
      double best = m[col * w + col] * m[col * w + col];
      for (int r = col + 1; r < k; ++r) {
        const double v = m[r * w + col] * m[r * w + col];
        if (v > best) {
          best = v;
          pivot = r;
        }
      }
      if (pivot != col)
        for (int c = 0; c <= k; ++c) std::swap(m[col * w + c], m[pivot * w + c]);
      for (int r = col + 1; r < k; ++r) {
        const double factor = m[r * w + col] / m[col * w + col];
        for (int c = col; c <= k; ++c) m[r * w + c] -= factor * m[col * w + c];
      }
    }
    for (int r = k - 1; r >= 0; --r) {
      double sum = m[r * w + k];
      for (int c = r + 1; c < k; ++c) sum -= m[r * w + c] * sol[c];
      sol[r] = sum / m[r * w + r];
    }
    for (int r = 0; r < k; ++r) x[s * k + r] = sol[r];
  }
}
