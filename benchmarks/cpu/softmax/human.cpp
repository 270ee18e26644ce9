#include <cstdint>
#include <cstring>

#include "kernel.h"

namespace {

// exp(t) for t <= 0 in straight-line code the compiler vectorizes: t = k ln2 + r with
// |r| <= ln2/2, exp(r) from its Taylor series to degree 13 (truncation below 1e-17), 2^k built
// in the exponent field. Accurate to a few ulps; returns 0 below -708, where exp(t) < 3e-308.
inline double exp_nonpositive(double t) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2 split so k * kLn2Hi is exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kRound = 0x1.8p52;  // adding and subtracting it rounds to an integer
  const double clamped = t < -708.0 ? -708.0 : t;
  const double k = (clamped * kLog2e + kRound) - kRound;
  const double r = (clamped - k * kLn2Hi) - k * kLn2Lo;
  constexpr double kInvFactorial[] = {1.0 / 479001600,
                                      1.0 / 39916800,
                                      1.0 / 3628800,
                                      1.0 / 362880,
                                      1.0 / 40320,
                                      1.0 / 5040,
                                      1.0 / 720,
                                      1.0 / 120,
                                      1.0 / 24,
                                      1.0 / 6,
                                      1.0 / 2,
                                      1.0,
                                      1.0};
  double p = 1.0 / 6227020800;  // 1/13!, then Horner down to 1/0!
  for (double c : kInvFactorial) p = p * r + c;
  const uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(k) + 1023) << 52;
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return t < -708.0 ? 0.0 : p * scale;
}

}  // namespace

// Each exponential is computed once, by a vectorizable exp, and kept in y; the row is then
// scaled by the reciprocal of its sum. All three passes over a row run as SIMD loops.
void softmax_rows(const double* x, double* y, long rows, long cols) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double* out = y + i * cols;
    double max = row[0];
#pragma omp simd reduction(max : max)
    for (long j = 1; j < cols; ++j) max = row[j] > max ? row[j] : max;
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (long j = 0; j < cols; ++j) {
      out[j] = exp_nonpositive(row[j] - max);
      sum += out[j];
    }
    const double scale = 1.0 / sum;
#pragma omp simd
    for (long j = 0; j < cols; ++j) out[j] *= scale;
  }
}
