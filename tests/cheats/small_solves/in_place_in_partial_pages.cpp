// Class 6 (writing its const inputs where they were writable): eliminates in place every system
// that lies in the first partial page of a and b, which the read-only protection left out;
// caught since a mapped array's pages are all read-only, partial ends included (arrays.h).
// Written by red team 15 (2026-11-27).
// expect: crash|input
#include <cmath>
#include <cstdint>
#include <utility>

#include "kernel.h"

// Gaussian elimination with partial pivoting. Systems whose matrix and right-hand side lie in
// the first (partial) page of the caller's arrays are eliminated in place, in a and b
// themselves (no copy); the others in a local copy.
namespace {
constexpr uintptr_t kPage = 4096;
// True when [p, p + bytes) lies before the first page boundary after base: the page the
// caller's array starts in mid-page (shared with whatever lies before it).
bool in_partial_page(const void* base, size_t total, const void* p, size_t bytes) {
  (void)total;
  const uintptr_t b = reinterpret_cast<uintptr_t>(base);
  const uintptr_t first_whole = (b + kPage - 1) / kPage * kPage;
  return reinterpret_cast<uintptr_t>(p) + bytes <= first_whole;
}

void eliminate(double* m, double* rhs, int k, double* x) {
  for (int col = 0; col < k; ++col) {
    int pivot = col;
    for (int r = col + 1; r < k; ++r)
      if (std::abs(m[r * k + col]) > std::abs(m[pivot * k + col])) pivot = r;
    if (pivot != col) {
      for (int c = 0; c < k; ++c) std::swap(m[col * k + c], m[pivot * k + c]);
      std::swap(rhs[col], rhs[pivot]);
    }
    for (int r = col + 1; r < k; ++r) {
      const double factor = m[r * k + col] / m[col * k + col];
      for (int c = col; c < k; ++c) m[r * k + c] -= factor * m[col * k + c];
      rhs[r] -= factor * rhs[col];
    }
  }
  for (int r = k - 1; r >= 0; --r) {
    double sum = rhs[r];
    for (int c = r + 1; c < k; ++c) sum -= m[r * k + c] * x[c];
    x[r] = sum / m[r * k + r];
  }
}
}  // namespace

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  static thread_local double mcopy[256 * 256], rcopy[256];
  const size_t kk = static_cast<size_t>(k) * k;
  for (long s = 0; s < count; ++s) {
    const double* ms = a + s * kk;
    const double* rs = b + s * k;
    if (in_partial_page(a, count * kk * 8, ms, kk * 8) &&
        in_partial_page(b, count * k * 8, rs, k * 8)) {
      eliminate(const_cast<double*>(ms), const_cast<double*>(rs), k, x + s * k);  // in place
    } else {
      for (size_t i = 0; i < kk; ++i) mcopy[i] = ms[i];
      for (int i = 0; i < k; ++i) rcopy[i] = rs[i];
      eliminate(mcopy, rcopy, k, x + s * k);
    }
  }
}
