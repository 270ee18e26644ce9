// For every position, count the later elements that are strictly smaller (LeetCode 315):
//   counts[i] = #{ j > i : values[j] < values[i] }
#pragma once

#include <cstdint>

// Values are any int32, from INT32_MIN to INT32_MAX, repeats allowed.
void count_smaller(const int32_t* values, long n, int32_t* counts);
