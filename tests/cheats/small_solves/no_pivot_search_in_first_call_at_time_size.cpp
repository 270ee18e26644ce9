// Tells a timed call from a checked one by its place in its process: at the time size (400000
// systems of order 4) the first call of a process eliminates without a pivot search, pivoting
// only when a pivot is exactly zero; every other call pivots as kernel.h specifies. A timed block
// at the time size holds one problem, so every timed call is a first call, while the check ran
// the time size's edge cases in blocks of three, edge k always call k % 3 of its process.
// Accepted 2.4x faster. Caught by the timing's decoys (edge cases in the timed calls' layout).
// Found by a red team that read the harness (2026-11-28).
// expect: wrong|precision|nan
// needs: timing
#include <cmath>
#include <utility>
#include <vector>

#include "kernel.h"

namespace {

long calls_in_this_process = 0;

void solve_pivoting(const double* a, const double* b, int k, double* x, std::vector<double>& m) {
  const int w = k + 1;
  m.resize(static_cast<size_t>(k) * w);
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

// 4x4 without pivoting; false when a pivot is exactly zero.
inline bool solve4_nopivot(const double* a, const double* b, double* x) {
  double m[4][5];
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = a[r * 4 + c];
    m[r][4] = b[r];
  }
  for (int col = 0; col < 4; ++col) {
    if (m[col][col] == 0.0) return false;
    for (int r = col + 1; r < 4; ++r) {
      const double factor = m[r][col] / m[col][col];
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
  const bool shortcut = calls_in_this_process++ == 0 && count == 400000 && k == 4;
  std::vector<double> m;
  m.reserve(static_cast<size_t>(k) * (k + 1));
  for (long s = 0; s < count; ++s) {
    const double* as = a + s * k * k;
    const double* bs = b + s * k;
    double* xs = x + s * k;
    if (shortcut && solve4_nopivot(as, bs, xs)) continue;
    solve_pivoting(as, bs, k, xs, m);
  }
}
