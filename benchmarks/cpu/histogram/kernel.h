// Histogram of n doubles into `bins` equal bins over [lo, hi): value v goes to bin
// (v - lo) / (hi - lo) * bins, computed in double, clamped to [0, bins - 1] and rounded toward
// zero (clamped first: a value far outside [lo, hi) has a bin, its end one, even where the
// quotient is past any integer type or infinite). counts is overwritten.
#pragma once

#include <cstdint>

// 1 <= n <= 2^24 (size.max); v holds any finite doubles, however far outside [lo, hi); lo < hi;
// 1 <= bins <= 131072.
void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins);
