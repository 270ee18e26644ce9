#include <algorithm>
#include <vector>

#include "kernel.h"

// Blocked matrix product in the usual BLAS shape: a register tile of C (kRows x kCols
// accumulators) is updated from a packed kDepth x kCols panel of B (in L1/L2) and kRows rows of A,
// one broadcast of A and one fused multiply-add per accumulator vector per k. The tile is as
// large as the register file allows (with AVX-512, 8 rows x 3 vectors = 24 accumulators, enough
// independent FMAs to cover their latency on both pipes), and every tile, edges included, runs
// the vector code: the panel is zero-padded past the last column and rows past the last one
// read a valid row whose results are dropped. Every element of C still adds its products in k
// order, one k-block after the other.

namespace {

#ifdef __AVX512F__
constexpr long kRows = 8, kCols = 24;
#else
constexpr long kRows = 6, kCols = 8;
#endif
constexpr long kDepth = 256;         // k-block: the packed B panel (48 KiB) stays in L1/L2
constexpr long kChunk = 12 * kRows;  // rows of A per work item: its k-block (192 KiB) stays in L2

// C tile (rows x cols of it at c, leading dimension n) += A rows times the packed panel over
// [k0, k1); starts from C, or from zero on the first k-block.
void tile(const double* const* arow, const double* panel, double* c, long n, long k0, long k1,
          long rows, long cols) {
  double acc[kRows][kCols];
  for (long r = 0; r < kRows; ++r)
    for (long j = 0; j < kCols; ++j)
      acc[r][j] = k0 == 0 || r >= rows || j >= cols ? 0.0 : c[r * n + j];
  for (long k = k0; k < k1; ++k) {
    const double* brow = panel + (k - k0) * kCols;
    for (long r = 0; r < kRows; ++r) {
      const double ark = arow[r][k];
#pragma omp simd
      for (long j = 0; j < kCols; ++j) acc[r][j] += ark * brow[j];
    }
  }
  for (long r = 0; r < rows; ++r)
    for (long j = 0; j < cols; ++j) c[r * n + j] = acc[r][j];
}

// Rows [k0, k1) of B's columns [j0, j0 + cols), zero-padded to kCols.
void pack_panel(const double* b, long n, long j0, long cols, long k0, long k1, double* panel) {
  for (long k = k0; k < k1; ++k)
    for (long j = 0; j < kCols; ++j)
      panel[(k - k0) * kCols + j] = j < cols ? b[k * n + j0 + j] : 0.0;
}

// C rows [i0, i1) x columns of the packed panel at j0, for one k-block.
void sweep_rows(const double* a, const double* panel, double* c, long n, long i0, long i1, long j0,
                long cols, long k0, long k1) {
  for (long i = i0; i < i1; i += kRows) {
    const double* arow[kRows];
    for (long r = 0; r < kRows; ++r) arow[r] = a + std::min(i + r, i1 - 1) * n;
    tile(arow, panel, c + i * n + j0, n, k0, k1, std::min(kRows, i1 - i), cols);
  }
}

}  // namespace

// The k-blocks run outermost so that a thread's chunk of A for the current k-block is reused
// from L2 by all its column panels. Work items are (row chunk, column panel) pairs, many more
// than threads so that the static split is even; the loop's barrier orders the k-blocks of a
// tile, and the static schedule gives a thread the same items (and cached C tiles) each time.
void matmul(const double* a, const double* b, double* c, long n) {
  const long panels = (n + kCols - 1) / kCols;
  const long chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel
  {
    std::vector<double> panel(kDepth * kCols);
    for (long k0 = 0; k0 < n; k0 += kDepth) {
      const long k1 = std::min(n, k0 + kDepth);
#pragma omp for collapse(2) schedule(static)
      for (long q = 0; q < chunks; ++q)
        for (long p = 0; p < panels; ++p) {
          const long j0 = p * kCols, cols = std::min(kCols, n - j0);
          pack_panel(b, n, j0, cols, k0, k1, panel.data());
          sweep_rows(a, panel.data(), c, n, q * kChunk, std::min(n, (q + 1) * kChunk), j0, cols, k0,
                     k1);
        }
    }
  }
}
