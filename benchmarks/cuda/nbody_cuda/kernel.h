// All-pairs gravitational acceleration with Plummer softening, for n bodies at (x, y, z) with
// masses m:  a_i = sum over all j of m_j (r_j - r_i) / (|r_j - r_i|^2 + eps2)^(3/2)
// (the j = i term is zero). All arrays are device memory from cudaMalloc; the outputs ax, ay,
// az do not overlap the inputs. The function launches its work on the default stream and may
// return before it finishes.
#pragma once

void nbody_accel(const float* x, const float* y, const float* z, const float* m, float* ax,
                 float* ay, float* az, long n, float eps2);
