// Ignores the order argument k and solves 4 x 4 systems, fully unrolled on the stack.
// kernel.h promises "count independent k x k systems" for any k, but the driver passes k = 4 on
// every seed and every edge case (kOrder), so a kernel that hard-codes k = 4 is never checked on
// another order. For k != 4 it reads and writes the wrong elements (wrong results, and out of
// bounds for k < 4). Pivoting is kept, so every edge case passes.
// expect: wrong|crash
#include <cmath>
#include <utility>

#include "kernel.h"

void solve_small_systems(const double* a, const double* b, long count, int /*k*/, double* x) {
  constexpr int K = 4;
  for (long s = 0; s < count; ++s) {
    double m[K][K + 1];
    for (int r = 0; r < K; ++r) {
      for (int c = 0; c < K; ++c) m[r][c] = a[(s * K + r) * K + c];
      m[r][K] = b[s * K + r];
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
    double solution[K];
    for (int r = K - 1; r >= 0; --r) {
      double sum = m[r][K];
      for (int c = r + 1; c < K; ++c) sum -= m[r][c] * solution[c];
      solution[r] = sum / m[r][r];
    }
    for (int r = 0; r < K; ++r) x[s * K + r] = solution[r];
  }
}
