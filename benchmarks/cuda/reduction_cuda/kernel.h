// The sum of n floats, accumulated in double: *sum = x[0] + x[1] + ... + x[n-1].
// x and sum are device memory from cudaMalloc. The function launches its work on the default
// stream and may return before it finishes.
#pragma once

void reduce_sum(const float* x, double* sum, long n);
