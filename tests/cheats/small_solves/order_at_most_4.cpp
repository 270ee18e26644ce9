// Red team 2 (a subagent that read the harness) (spec gap): the allocations hoisted into one
// stack buffer sized for the largest
// order the driver ever uses (4). kernel.h promises any k; the driver's fills and edge cases use
// k = 4, 2 and 1 only, so k >= 5 (which overruns the buffer) is never exercised.
// expect: crash|wrong
#include <cmath>
#include <utility>

#include "kernel.h"

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  double m[4 * 5];  // k x (k + 1), row-major: room for k <= 4
  double solution[4];
  const int w = k + 1;
  for (long s = 0; s < count; ++s) {
    for (int r = 0; r < k; ++r) {
      for (int c = 0; c < k; ++c) m[r * w + c] = a[(s * k + r) * k + c];
      m[r * w + k] = b[s * k + r];
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
      for (int c = r + 1; c < k; ++c) sum -= m[r * w + c] * solution[c];
      solution[r] = sum / m[r * w + r];
    }
    for (int r = 0; r < k; ++r) x[s * k + r] = solution[r];
  }
}
