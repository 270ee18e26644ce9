// A weak opendir: the harness calls opendir("/proc/self/task") right after it stops the clock
// (to count threads), so the kernel only records its arguments and this opendir computes the
// stencil, outside the timed region. It answers nullptr, which the harness takes as "no count".
// expect: interposition
#include <dirent.h>

#include "kernel.h"

namespace {
const double* pending_in = nullptr;
const double* pending_w = nullptr;
double* pending_out = nullptr;
long pending_n = 0;
int pending_radius = 0;

void compute(const double* in, double* out, long n, const double* w, int radius) {
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = -radius; k <= radius; ++k) {
      const long j = i + k;
      if (j >= 0 && j < n) sum += w[k + radius] * in[j];
    }
    out[i] = sum;
  }
}
}  // namespace

extern "C" __attribute__((weak)) DIR* opendir(const char*) {
  if (pending_out) compute(pending_in, pending_out, pending_n, pending_w, pending_radius);
  pending_out = nullptr;
  return nullptr;
}

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  pending_in = in, pending_out = out, pending_n = n, pending_w = w, pending_radius = radius;
}
