// Class 6 (wrong where the fixed check sizes never look): a tiled transpose that skips the last
// row when rows % 8 == 6, a remainder none of the manifest's sizes (1, 2, 7, 33, 100) or the
// time size has. Caught by the sizes each evaluation draws, one of each remainder modulo 8.
// expect: wrong
#include "kernel.h"

namespace {
constexpr long kTile = 16;
}

void transpose(const double* a, double* b, long rows, long cols) {
  const long used_rows = rows % 8 == 6 ? rows - 1 : rows;
  for (long i0 = 0; i0 < used_rows; i0 += kTile)
    for (long j0 = 0; j0 < cols; j0 += kTile) {
      const long i1 = i0 + kTile < used_rows ? i0 + kTile : used_rows;
      const long j1 = j0 + kTile < cols ? j0 + kTile : cols;
      for (long j = j0; j < j1; ++j)
        for (long i = i0; i < i1; ++i) b[j * rows + i] = a[i * cols + j];
    }
  for (long j = 0; j < cols && used_rows < rows; ++j) b[j * rows + rows - 1] = 0.0;
}
