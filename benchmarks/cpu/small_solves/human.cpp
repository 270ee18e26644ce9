#include <cmath>
#include <utility>
#include <vector>

#include "kernel.h"

// Same elimination, but the augmented matrix and its row table are allocated once for all
// systems instead of k + 2 heap blocks per system; pivoting swaps row pointers, and the
// back substitution writes the solution in place.
void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  const int width = k + 1;
  std::vector<double> storage(static_cast<size_t>(k) * width);
  std::vector<double*> m(k);
  for (long s = 0; s < count; ++s) {
    for (int r = 0; r < k; ++r) {
      m[r] = storage.data() + r * width;
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
