#include "kernel.h"

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  for (int b = 0; b < bins; ++b) counts[b] = 0;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double t = (v[i] - lo) / (hi - lo) * bins;
    if (t < 0) t = 0;
    const long b = t >= bins ? bins - 1 : static_cast<long>(t);
#pragma omp atomic
    counts[b]++;
  }
}
