// Sample-sort classification. With nsplit splitters sorted ascending (duplicates allowed):
//   bucket[i] = number of splitters <= keys[i], in [0, nsplit];
//   counts[b] = number of keys with bucket b, for every b in [0, nsplit].
#pragma once

#include <cstdint>

// 1 <= n <= 8000000 (size.max); keys are any finite doubles (any sign or magnitude); keys may
// equal splitters; 0 <= nsplit <= 65536.
void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts);
