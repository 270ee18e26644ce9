// For every position, count the later elements that are strictly smaller (LeetCode 315):
//   counts[i] = #{ j > i : values[j] < values[i] }
#pragma once

#include <cstdint>

// 1 <= n <= 262144 (2^18, the largest size the check reaches: the original compares all
// pairs); values are any int32, from INT32_MIN to INT32_MAX, repeats allowed.
void count_smaller(const int32_t* values, long n, int32_t* counts);
