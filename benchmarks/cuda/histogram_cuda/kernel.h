// 256-bin histogram of n bytes: bins[v] = the number of i < n with data[i] == v.
// data and bins (256 counters) are device memory from cudaMalloc; bins holds garbage on entry.
// The function launches its work on the default stream and may return before it finishes.
#pragma once

void histogram256(const unsigned char* data, unsigned* bins, long n);
