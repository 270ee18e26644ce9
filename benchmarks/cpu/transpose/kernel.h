// Out-of-place transpose of a row-major rows x cols matrix: b[j][i] = a[i][j], where b is
// row-major cols x rows.
#pragma once

// rows >= 1 and cols >= 1, any shape with rows * cols <= 4800 * 7201 (size.max 4800).
void transpose(const double* a, double* b, long rows, long cols);
