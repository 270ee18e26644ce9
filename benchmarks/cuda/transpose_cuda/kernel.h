// Matrix transpose: out[j][i] = in[i][j] for a row-major rows x cols matrix `in`; `out` is the
// row-major cols x rows result. Both are device arrays from cudaMalloc that do not overlap.
// The function launches its work on the default stream and may return before it finishes.
#pragma once

void transpose(const float* in, float* out, long rows, long cols);
