// Explicit heat diffusion on a row-major n x n grid: `steps` Jacobi sweeps of
//   v[i][j] = u[i][j] + r * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] - 4 * u[i][j])
// over the interior, the boundary held at its value in u0. Reads u0, writes the final grid to
// u; scratch (n * n doubles) is workspace the function may overwrite.
#pragma once

// 1 <= n <= 2000 (size.max) and 0 <= steps <= 40, odd or even; with n <= 2 there is no interior.
void jacobi2d(const double* u0, double* u, double* scratch, long n, int steps, double r);
