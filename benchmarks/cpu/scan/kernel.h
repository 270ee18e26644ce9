// Inclusive prefix sum: y[i] = x[0] + x[1] + ... + x[i] for i in [0, n).
#pragma once

// 1 <= n <= 2^24 (size.max); x holds nonnegative finite doubles, subnormals included (they count:
// no flush to zero).
void prefix_sum(const double* x, double* y, long n);
