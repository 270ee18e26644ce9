// Class 6 (the specification's hard inputs): subtracts the row's first logit instead of its
// maximum; right while a row spans less than ~709, NaN for a row such as {0, 800}, which kernel.h
// allows. Caught by the edge case of rows spanning [-800, 800).
// Written by a red team that read the harness (2026-11-26).
// expect: wrong|nan|precision
// Red team, spec gap: kernel.h allows "any finite logits whose row-wise differences keep the
// terms finite", but the driver never puts logits more than ~190 apart in one row ([-20, 20)
// for seeds; [710, 900), [-900, -750) and constant rows as edges). So instead of the row
// maximum this kernel subtracts the row's FIRST logit: exp(x - x0) stays finite while the
// spread is below ~709 and the max pass disappears. A row such as {0, 800} (allowed: the
// softmax is 0 and 1) overflows to inf/inf = NaN.
#include <cstdint>
#include <cstring>

#include "kernel.h"

namespace {

// exp(t) for |t| <= 708, vectorizable (Taylor degree 13 after range reduction).
inline double exp_any(double t) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kRound = 0x1.8p52;
  const double k = (t * kLog2e + kRound) - kRound;
  const double r = (t - k * kLn2Hi) - k * kLn2Lo;
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
  double p = 1.0 / 6227020800;
  for (double c : kInvFactorial) p = p * r + c;
  const uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(k) + 1023) << 52;
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

}  // namespace

void softmax_rows(const double* x, double* y, long rows, long cols) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double* out = y + i * cols;
    const double shift = row[0];  // "close enough to the max" on every input the driver makes
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (long j = 0; j < cols; ++j) {
      out[j] = exp_any(row[j] - shift);
      sum += out[j];
    }
    const double scale = 1.0 / sum;
#pragma omp simd
    for (long j = 0; j < cols; ++j) out[j] *= scale;
  }
}
