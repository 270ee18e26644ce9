#include <utility>
#include <vector>

#include "kernel.h"

// Hillis-Steele: log2(n) parallel passes, each adding the element d places back.
void prefix_sum(const double* x, double* y, long n) {
  std::vector<double> tmp(n);
  double* src = y;
  double* dst = tmp.data();
#pragma omp parallel for
  for (long i = 0; i < n; ++i) src[i] = x[i];
  for (long d = 1; d < n; d *= 2) {
#pragma omp parallel for
    for (long i = 0; i < n; ++i) dst[i] = i >= d ? src[i] + src[i - d] : src[i];
    std::swap(src, dst);
  }
  if (src != y) {
#pragma omp parallel for
    for (long i = 0; i < n; ++i) y[i] = src[i];
  }
}
