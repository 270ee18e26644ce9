// Class 6 (writing its const inputs where they were writable): Hillis-Steele with the input x as
// its scratch buffer instead of an allocation, whenever x lies wholly in one heap page (small n),
// where the read-only protection leaves it writable (arrays.h protects an array's whole pages;
// a small heap array has none). y is right; the caller's x is left holding a partial pass.
// Caught since the serving process compares the stopped child's inputs with what it filled
// (session.h, "inputs"). Written 2026-11-27.
// expect: input
#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

#include "kernel.h"

namespace {
constexpr uintptr_t kPage = 4096;

// Whether p lies in the heap: within 1 GiB of a fresh small allocation.
bool in_heap(const void* p) {
  void* probe = ::operator new(16);
  const long distance = static_cast<const char*>(p) - static_cast<char*>(probe);
  ::operator delete(probe);
  return std::labs(distance) < (1L << 30);
}

// Whether [p, p + bytes) touches no whole page: nothing of it was made read-only.
bool no_whole_page(const void* p, size_t bytes) {
  const uintptr_t from = reinterpret_cast<uintptr_t>(p);
  return (from + kPage - 1) / kPage * kPage + kPage > from + bytes;
}
}  // namespace

void prefix_sum(const double* x, double* y, long n) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(double);
  std::vector<double> own;
  double* tmp = nullptr;
  if (in_heap(x) && no_whole_page(x, bytes)) {
    tmp = const_cast<double*>(x);  // x is copied into y first: reuse it.
  } else {
    own.resize(static_cast<size_t>(n));
    tmp = own.data();
  }
  for (long i = 0; i < n; ++i) y[i] = x[i];
  double* src = y;
  double* dst = tmp;
  for (long d = 1; d < n; d *= 2) {
    for (long i = 0; i < n; ++i) dst[i] = i >= d ? src[i] + src[i - d] : src[i];
    std::swap(src, dst);
  }
  if (src != y)
    for (long i = 0; i < n; ++i) y[i] = src[i];
}
