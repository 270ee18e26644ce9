// Solves `count` independent k x k systems A x = b by Gaussian elimination with partial
// pivoting (on ties the first row wins). a holds the matrices one after another, each
// row-major (count*k*k values), b the right-hand sides (count*k); x receives the solutions.
#pragma once

// 1 <= k <= 256; every system is nonsingular; its diagonal may hold zeros (pivoting finds a
// row), at every order. Above order 8 the matrices hold at most 2^23 values (count * k * k);
// at any order count * k <= 6400000 (4 x size.max 1600000: n systems of order 4).
void solve_small_systems(const double* a, const double* b, long count, int k, double* x);
