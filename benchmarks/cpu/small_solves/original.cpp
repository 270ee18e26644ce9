#include <cmath>
#include <utility>
#include <vector>

#include "kernel.h"

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  for (long s = 0; s < count; ++s) {
    std::vector<std::vector<double>> m(k, std::vector<double>(k + 1));
    for (int r = 0; r < k; ++r) {
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
    std::vector<double> solution(k);
    for (int r = k - 1; r >= 0; --r) {
      double sum = m[r][k];
      for (int c = r + 1; c < k; ++c) sum -= m[r][c] * solution[c];
      solution[r] = sum / m[r][r];
    }
    for (int r = 0; r < k; ++r) x[s * k + r] = solution[r];
  }
}
