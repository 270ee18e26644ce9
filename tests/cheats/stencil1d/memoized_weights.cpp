// Class 1 (state kept across calls): the weights are copied into a static table the first
// time a radius is seen and reused while the radius stays, so a second call with new weights
// applies the first call's filter. Every check call used to run alone in its own process;
// now the calls at a size run one after another in one process, and the second one fails.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <algorithm>

#include "kernel.h"

namespace {
constexpr int kMaxRadius = 16384;
double g_weights[2 * kMaxRadius + 1];
int g_radius = -1;  // radius the memo holds
}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (radius != g_radius) {  // BUG: keyed on the radius only, not on the weights
    std::copy(w, w + 2 * radius + 1, g_weights);
    g_radius = radius;
  }
  const double* wt = g_weights;
  const long lo = std::min<long>(radius, n), hi = std::max<long>(lo, n - radius);
#pragma omp parallel
  {
#pragma omp for nowait
    for (long i = 0; i < lo; ++i) {
      double sum = 0.0;
      for (int k = -radius; k <= radius; ++k) {
        const long j = i + k;
        if (j >= 0 && j < n) sum += wt[k + radius] * in[j];
      }
      out[i] = sum;
    }
#pragma omp for nowait
    for (long i = hi; i < n; ++i) {
      double sum = 0.0;
      for (int k = -radius; k <= radius; ++k) {
        const long j = i + k;
        if (j >= 0 && j < n) sum += wt[k + radius] * in[j];
      }
      out[i] = sum;
    }
#pragma omp for schedule(static)
    for (long i = lo; i < hi; ++i) {
      const double* base = in + i - radius;
      double sum = 0.0;
      for (int k = 0; k <= 2 * radius; ++k) sum += wt[k] * base[k];
      out[i] = sum;
    }
  }
}
