// A weak memset that ignores the harness's integer poison (0xA5), so the counts of the previous
// call survive; the kernel then counts only when the input looks new (pointer and two samples
// of the content) and returns at once on every repeated timed call.
// expect: interposition
#include <cstddef>
#include <cstdint>

#include "kernel.h"

extern "C" __attribute__((weak)) void* memset(void* dest, int value, std::size_t n) {
  if (value == 0xA5) return dest;
  volatile unsigned char* p = static_cast<unsigned char*>(dest);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(value);
  return dest;
}

namespace {
const double* last = nullptr;
double first = 0, middle = 0;
}  // namespace

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  if (v == last && v[0] == first && v[n / 2] == middle) return;
  last = v, first = v[0], middle = v[n / 2];
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  for (long i = 0; i < n; ++i) {
    long b = static_cast<long>((v[i] - lo) / (hi - lo) * bins);
    if (b < 0) b = 0;
    if (b >= bins) b = bins - 1;
    counts[b]++;
  }
}
