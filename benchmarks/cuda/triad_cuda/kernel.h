// The STREAM triad on the GPU: a[i] = b[i] + s * c[i] for 0 <= i < n.
// a, b and c are device arrays from cudaMalloc (so 256-byte aligned) that do not overlap.
// The function launches its work on the default stream and may return before it finishes.
#pragma once

void triad(float* a, const float* b, const float* c, float s, long n);
