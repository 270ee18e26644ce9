// For every position, count the later elements that are strictly smaller (LeetCode 315):
//   counts[i] = #{ j > i : values[j] < values[i] }
#pragma once

#include <cstdint>

void count_smaller(const int32_t* values, long n, int32_t* counts);
