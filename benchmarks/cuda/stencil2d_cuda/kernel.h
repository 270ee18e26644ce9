// One Jacobi sweep of the 5-point stencil on an n x n row-major grid:
//   out[i][j] = c * in[i][j] + w * (in[i-1][j] + in[i+1][j] + in[i][j-1] + in[i][j+1])
// for interior points, and out[i][j] = in[i][j] on the boundary (i or j is 0 or n-1).
// in and out are device arrays from cudaMalloc that do not overlap. The function launches its
// work on the default stream and may return before it finishes.
#pragma once

void stencil5(const float* in, float* out, long n, float c, float w);
