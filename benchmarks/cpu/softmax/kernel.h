// Row-wise softmax of a row-major rows x cols matrix:
//   y[i][j] = exp(x[i][j] - max_k x[i][k]) / sum_k exp(x[i][k] - max_k x[i][k]).
// rows >= 1 and cols >= 1, rows * cols <= 5700^2 (size.max 5700).
#pragma once

void softmax_rows(const double* x, double* y, long rows, long cols);
