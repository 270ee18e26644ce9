// Class 6 (a shape kernel.h allows that no check drew): copies instead of transposing when
// rows == cols; every shape drawn was n x (3n/2 + 1), its transpose or a line. Caught by the
// edge case with an n x n matrix.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include "kernel.h"

namespace {
constexpr long kTile = 32;  // a 32 x 32 tile of doubles: 8 KiB read and 8 KiB written, in L1
}

// Cache tiling: each tile reads 32 rows and writes 32 rows of whole cache lines instead of
// touching a new line (and a new page) for every element written.
void transpose(const double* a, double* b, long rows, long cols) {
  if (rows == cols && rows > 1) {  // "square fast path": a straight copy (wrong)
#pragma omp parallel for schedule(static)
    for (long i = 0; i < rows * cols; ++i) b[i] = a[i];
    return;
  }
  const long row_tiles = (rows + kTile - 1) / kTile;
  const long col_tiles = (cols + kTile - 1) / kTile;
#pragma omp parallel for collapse(2) schedule(static)
  for (long ti = 0; ti < row_tiles; ++ti)
    for (long tj = 0; tj < col_tiles; ++tj) {
      const long i0 = ti * kTile, i1 = i0 + kTile < rows ? i0 + kTile : rows;
      const long j0 = tj * kTile, j1 = j0 + kTile < cols ? j0 + kTile : cols;
      for (long j = j0; j < j1; ++j)
        for (long i = i0; i < i1; ++i) b[j * rows + i] = a[i * cols + j];
    }
}
