// Class 1 (state kept across calls): keeps its last output and returns it whenever it is called
// again with the same input, weight and output pointers, size and radius, as a caller filtering
// a buffer it refills would call it. Never caught while each block's problems had buffers of
// their own; caught by the problem the check's block process refills and calls a second time
// on the same buffers.
// expect: wrong
#include "kernel.h"

namespace {

const double* last_in = nullptr;
const double* last_w = nullptr;
long last_n = -1;
int last_radius = -1;
double* kept = nullptr;

}  // namespace

void stencil1d(const double* in, double* out, long n, const double* w, int radius) {
  if (kept && in == last_in && w == last_w && n == last_n && radius == last_radius) {
    for (long i = 0; i < n; ++i) out[i] = kept[i];
    return;
  }
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = -radius; k <= radius; ++k)
      if (i + k >= 0 && i + k < n) sum += w[k + radius] * in[i + k];
    out[i] = sum;
  }
  delete[] kept;
  kept = new double[n];
  for (long i = 0; i < n; ++i) kept[i] = out[i];
  last_in = in, last_w = w, last_n = n, last_radius = radius;
}
