#include <vector>

#include "kernel.h"

namespace {

constexpr long kRows = 4;  // register tile: kRows x kCols accumulators
#ifdef __AVX512F__
constexpr long kCols = 16;
#else
constexpr long kCols = 8;
#endif
constexpr long kDepth = 256;  // k-block: a packed kDepth x kCols panel of B stays in L1

// C tile (rows x cols at c, leading dimension n) += A rows times the packed panel over
// [k0, k1). The tile starts from C (or zero on the first k-block), so every element still
// adds its products in k order.
template <long Rows, long Cols>
void tile(const double* a, const double* panel, double* c, long n, long k0, long k1) {
  double acc[Rows][Cols];
  for (long r = 0; r < Rows; ++r)
    for (long j = 0; j < Cols; ++j) acc[r][j] = k0 == 0 ? 0.0 : c[r * n + j];
  for (long k = k0; k < k1; ++k) {
    const double* brow = panel + (k - k0) * kCols;
    for (long r = 0; r < Rows; ++r) {
      const double ark = a[r * n + k];
#pragma omp simd
      for (long j = 0; j < Cols; ++j) acc[r][j] += ark * brow[j];
    }
  }
  for (long r = 0; r < Rows; ++r)
    for (long j = 0; j < Cols; ++j) c[r * n + j] = acc[r][j];
}

// The same for a partial tile at the right or bottom edge.
void edge_tile(const double* a, const double* panel, double* c, long n, long k0, long k1, long rows,
               long cols) {
  for (long r = 0; r < rows; ++r)
    for (long j = 0; j < cols; ++j) {
      double sum = k0 == 0 ? 0.0 : c[r * n + j];
      for (long k = k0; k < k1; ++k) sum += a[r * n + k] * panel[(k - k0) * kCols + j];
      c[r * n + j] = sum;
    }
}

}  // namespace

// Each thread owns whole column panels of C (no sharing, no barriers). For every k-block the
// panel of B is packed contiguously, then swept by register tiles down all rows of A.
void matmul(const double* a, const double* b, double* c, long n) {
  const long panels = (n + kCols - 1) / kCols;
#pragma omp parallel
  {
    std::vector<double> panel(kDepth * kCols);
#pragma omp for schedule(static)
    for (long p = 0; p < panels; ++p) {
      const long j0 = p * kCols, cols = n - j0 < kCols ? n - j0 : kCols;
      for (long k0 = 0; k0 < n; k0 += kDepth) {
        const long k1 = n - k0 < kDepth ? n : k0 + kDepth;
        for (long k = k0; k < k1; ++k)
          for (long j = 0; j < cols; ++j) panel[(k - k0) * kCols + j] = b[k * n + j0 + j];
        long i = 0;
        for (; cols == kCols && i + kRows <= n; i += kRows)
          tile<kRows, kCols>(a + i * n, panel.data(), c + i * n + j0, n, k0, k1);
        for (; i < n; i += kRows) {
          const long rows = n - i < kRows ? n - i : kRows;
          edge_tile(a + i * n, panel.data(), c + i * n + j0, n, k0, k1, rows, cols);
        }
      }
    }
  }
}
