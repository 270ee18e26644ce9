// Inclusive prefix sum modulo 2^32: out[i] = in[0] + in[1] + ... + in[i] for 0 <= i < n.
// in and out are device arrays from cudaMalloc that do not overlap. The function launches its
// work on the default stream and may return before it finishes; it may keep scratch memory
// between calls.
#pragma once

void inclusive_scan(const unsigned* in, unsigned* out, long n);
