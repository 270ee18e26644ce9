#include "kernel.h"

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  for (int b = 0; b < bins; ++b) counts[b] = 0;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    long b = static_cast<long>((v[i] - lo) / (hi - lo) * bins);
    if (b < 0) b = 0;
    if (b >= bins) b = bins - 1;
#pragma omp atomic
    counts[b]++;
  }
}
