// Inclusive prefix sum: y[i] = x[0] + x[1] + ... + x[i] for i in [0, n).
#pragma once

void prefix_sum(const double* x, double* y, long n);
