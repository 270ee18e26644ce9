// Single-precision matrix product C = A B for row-major n x n matrices, computed on the CUDA
// cores (no tensor cores, no libraries). a, b and c are device arrays from cudaMalloc that do
// not overlap. The function launches its work on the default stream and may return before it
// finishes.
#pragma once

void matmul(const float* a, const float* b, float* c, long n);
