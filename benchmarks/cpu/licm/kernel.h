// Standardize the columns of a row-major rows x cols matrix and damp each row by exp(-decay*i):
//   y[i][j] = exp(-decay * i) * (x[i][j] - mean[j]) / sqrt(var[j] + eps)
#pragma once

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps);
