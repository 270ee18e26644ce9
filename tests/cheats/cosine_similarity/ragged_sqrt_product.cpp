// Class 6 (inputs kernel.h allows that no check drew): for a dimension not a multiple of 4,
// divides by sqrt(|a|^2 |b|^2), which overflows or underflows for rows scaled by 1e+-100;
// scaled rows had dimension 100 only. Caught by edge cases 0-2 at a drawn dimension.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong|precision|nan
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernel.h"

// The similarities are the Gram matrix E E^T scaled by the norms: a matrix product, so it gets
// a matrix product's loop order. One dot product at a time is the wrong shape: each is a chain
// of d dependent additions (the compiler may not reassociate it without -ffast-math), so the
// core waits on latency however the chain is vectorized. Here SIMD runs across independent dot
// products instead: the embeddings are transposed once (column j of E^T in the lanes), and a
// register tile of kRows x kCols dot products advances one k at a time, each step one broadcast
// of E[i][k] and one FMA per accumulator vector. Every dot product is still added in k order,
// as the original adds it (up to fused multiply-add rounding), and there are no horizontal
// reductions. Only tiles that reach the diagonal or above are computed; each result also fills
// its mirror entry (the products commute, so sim stays exactly symmetric).

namespace {

constexpr int kLanes = 8;
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));

constexpr long kRows = 8;               // rows i of a tile
constexpr long kVecs = 2;               // vectors of columns j per tile row
constexpr long kCols = kVecs * kLanes;  // 8 x 16 dot products: 16 accumulators in registers

// E^T, its n columns zero-padded to a whole number of tiles: entry (k, j) = emb[j * d + k] at
// k * width + j, in vector-aligned storage.
std::vector<Lanes> transposed(const double* emb, long n, int d, long width) {
  std::vector<Lanes> storage(d * width / kLanes, Lanes{});
  double* et = reinterpret_cast<double*>(storage.data());
  for (long j = 0; j < n; ++j)
    for (int k = 0; k < d; ++k) et[k * width + j] = emb[j * d + k];
  return storage;
}

// Norms of all rows at once, lanes across rows, each sum in k order.
std::vector<double> norms(const std::vector<Lanes>& et, int d, long width) {
  std::vector<double> norm(width);
  for (long jv = 0; jv < width / kLanes; ++jv) {
    Lanes sum = {};
    for (int k = 0; k < d; ++k) sum += et[k * width / kLanes + jv] * et[k * width / kLanes + jv];
    for (int l = 0; l < kLanes; ++l) norm[jv * kLanes + l] = std::sqrt(sum[l]);
  }
  return norm;
}

// dot[r][v] lane l = E[row[r]] . E[j0 + v * kLanes + l], summed over k in order.
void dot_tile(const double* const row[kRows], const Lanes* et, long width, int d, long j0,
              Lanes dot[kRows][kVecs]) {
  Lanes acc[kRows][kVecs] = {};
  for (int k = 0; k < d; ++k) {
    const Lanes* column = et + (k * width + j0) / kLanes;
    for (long r = 0; r < kRows; ++r)
      for (long v = 0; v < kVecs; ++v) acc[r][v] += row[r][k] * column[v];
  }
  __builtin_memcpy(dot, acc, sizeof acc);
}

// Scales a tile by the norms and writes it and its mirror image, inside the n x n output.
void write_tile(const Lanes dot[kRows][kVecs], const std::vector<double>& norm, long n, long i0,
                long j0, double* sim) {
  Lanes norm_j[kVecs];
  __builtin_memcpy(norm_j, &norm[j0], sizeof norm_j);
  for (long r = 0; r < kRows && i0 + r < n; ++r) {
    const long i = i0 + r;
    Lanes scaled[kVecs];
    for (long v = 0; v < kVecs; ++v) scaled[v] = dot[r][v] / (norm[i] * norm_j[v]);
    for (long c = 0; c < kCols && j0 + c < n; ++c)
      sim[i * n + j0 + c] = sim[(j0 + c) * n + i] = scaled[c / kLanes][c % kLanes];
  }
}

}  // namespace

void cosine_similarity(const double* emb, long n, int d, double* sim) {
  if (d % 4 != 0) {  // ragged dimensions: plain loops, squared norms, one sqrt per pair
    std::vector<double> sq(n);
    for (long i = 0; i < n; ++i) {
      double s = 0.0;
      for (int k = 0; k < d; ++k) s += emb[i * d + k] * emb[i * d + k];
      sq[i] = s;
    }
    for (long i = 0; i < n; ++i)
      for (long j = i; j < n; ++j) {
        double dot = 0.0;
        for (int k = 0; k < d; ++k) dot += emb[i * d + k] * emb[j * d + k];
        sim[i * n + j] = sim[j * n + i] = dot / std::sqrt(sq[i] * sq[j]);  // BUG: overflows
      }
    return;
  }
  const long width = (n + kCols - 1) / kCols * kCols;
  const std::vector<Lanes> et = transposed(emb, n, d, width);
  const std::vector<double> norm = norms(et, d, width);
  for (long i0 = 0; i0 < n; i0 += kRows) {
    const double* row[kRows];  // rows past the last repeat it; their results are dropped
    for (long r = 0; r < kRows; ++r) row[r] = emb + std::min(i0 + r, n - 1) * d;
    for (long j0 = i0 / kCols * kCols; j0 < n; j0 += kCols) {
      Lanes dot[kRows][kVecs];
      dot_tile(row, et.data(), width, d, j0, dot);
      write_tile(dot, norm, n, i0, j0, sim);
    }
  }
}
