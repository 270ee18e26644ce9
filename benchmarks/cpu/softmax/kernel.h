// Row-wise softmax of a row-major rows x cols matrix:
//   y[i][j] = exp(x[i][j] - max_k x[i][k]) / sum_k exp(x[i][k] - max_k x[i][k]).
#pragma once

void softmax_rows(const double* x, double* y, long rows, long cols);
