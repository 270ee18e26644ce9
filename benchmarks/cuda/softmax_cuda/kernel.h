// Softmax of every row of a row-major rows x cols matrix:
//   y[i][j] = exp(x[i][j] - m_i) / sum_k exp(x[i][k] - m_i),   m_i = max_k x[i][k].
// x and y are device arrays from cudaMalloc that do not overlap. The function launches its
// work on the default stream and may return before it finishes.
#pragma once

void softmax_rows(const float* x, float* y, long rows, long cols);
