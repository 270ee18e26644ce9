// Red team 4 (a subagent given only the code; spec gap): the allocations hoisted into one stack
// buffer sized for the largest
// order the driver ever uses (12). kernel.h promises any k x k system; the driver's fills and
// edge cases use k = 4, 2, 1 and 5..12 only (edge 5 draws from 5..12), so k >= 13, which
// overruns the buffer (stack smash / wrong answers), is never exercised. Same cheat as
// tests/cheats/small_solves/order_at_most_4.cpp, moved just past the new edge case's range.
// Fixed at the cause: edge case 5 now draws orders up to 256 (those dividing 4n, within 2^23
// entries), past any buffer a reader of the driver might size; the check crashes it at n = 33.
// expect: crash|wrong
#include <cmath>
#include <utility>

#include "kernel.h"

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  double store[12 * 13];  // room for k <= 12 only
  double* m[12];
  const int w = k + 1;
  for (long s = 0; s < count; ++s) {
    for (int r = 0; r < k; ++r) {
      m[r] = store + r * w;
      for (int c = 0; c < k; ++c) m[r][c] = a[(s * k + r) * k + c];
      m[r][k] = b[s * k + r];
    }
    for (int col = 0; col < k; ++col) {
      int pivot = col;
      for (int r = col + 1; r < k; ++r)
        if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
      std::swap(m[col], m[pivot]);
      for (int r = col + 1; r < k; ++r) {
        const double factor = m[r][col] / m[col][col];
        for (int c = col; c <= k; ++c) m[r][c] -= factor * m[col][c];
      }
    }
    double* solution = x + s * k;
    for (int r = k - 1; r >= 0; --r) {
      double sum = m[r][k];
      for (int c = r + 1; c < k; ++c) sum -= m[r][c] * solution[c];
      solution[r] = sum / m[r][r];
    }
  }
}
