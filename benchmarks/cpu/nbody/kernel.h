// Softened gravitational accelerations of n bodies (G = 1):
//   acc_i = sum over j != i of m_j (p_j - p_i) / (|p_j - p_i|^2 + eps^2)^(3/2).
// Body i is body[4i .. 4i+2] = position, body[4i+3] = mass; acc[3i .. 3i+2] receives acc_i.
#pragma once

// Positions are finite with |p| <= 1e100, masses from 0 to 1, and 1e-100 <= eps <= 1e100, so
// that every term, the j == i term too, is a finite double; bodies may coincide.
// 1 <= n <= 6000 (size.max).
void nbody_accel(const double* body, double* acc, long n, double eps);
