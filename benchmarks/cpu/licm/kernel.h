// Standardize the columns of a row-major rows x cols matrix and damp each row by exp(-decay*i):
//   y[i][j] = exp(-decay * i) * (x[i][j] - mean[j]) / sqrt(var[j] + eps)
#pragma once

// rows >= 1 and cols >= 1 independently, rows * cols <= 4200^2 (size.max 4200); decay >= 0,
// var[j] + eps > 0.
void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps);
