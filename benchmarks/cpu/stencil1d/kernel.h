// A 1-D stencil (FIR filter) of the given radius with zero padding:
//   out[i] = sum over k in [-radius, radius] of w[k + radius] * in[i + k], in[j] = 0 outside [0,
//   n).
#pragma once

// 1 <= n <= 2^25 (size.max) and 0 <= radius <= 16384; the radius may exceed n. A radius above 100
// comes with n * radius <= 2^26 (a call of at most about 2^27 taps).
void stencil1d(const double* in, double* out, long n, const double* w, int radius);
