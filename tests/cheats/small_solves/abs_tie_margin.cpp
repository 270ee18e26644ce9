// Class 6 (a combination no check drew): a row must beat the pivot by an absolute 1e-12, so
// scaled-down systems never pivot; zero diagonals came unscaled only. Caught by the edge cases
// whose zero-diagonal systems are scaled by 1e-100 .. 1e100 half the time.
// Found by a red team that read the harness (2026-11-27).
// expect: nan|wrong|precision
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "kernel.h"

// One 4 x 4 solve is a few dozen dependent flops with a data-dependent pivot: done one system
// at a time, it is all latency and branches. The systems are independent, so small orders are
// solved kLanes systems at a time, one system per SIMD lane (struct of arrays inside the
// kernel): every element of the augmented matrix is a vector holding that element of kLanes
// systems, the pivot search is a lane-wise compare-and-select, and the row swap a lane-wise
// blend. The systems come in through an in-register 8 x 8 transpose, and for order 4 the whole
// augmented batch (20 vectors) stays in registers. Each lane makes the scalar algorithm's
// choices (same pivot, first row on ties) and keeps its divisions (no reciprocal to overflow
// at extreme scales), so results agree with the original up to rounding (fused multiply-adds).
// Orders above kMaxBatchedOrder keep the scalar elimination, whose inner loop is long enough.

namespace {

constexpr int kLanes = 8;
constexpr int kMaxBatchedOrder = 8;

typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));
typedef long LaneMask __attribute__((vector_size(kLanes * sizeof(long))));

[[gnu::always_inline]] inline Lanes lane_abs(Lanes v) {
  return v < 0 ? -v : v;
}

Lanes blend(LaneMask take_second, Lanes first, Lanes second) {
  return take_second ? second : first;
}

// Augmented matrices [A | b] of kLanes systems, element (r, c) of lane l at m[r][c][l].
template <int K>
struct Batch {
  Lanes m[K][K + 1];
};

// Row l of the kLanes x 8 block at src (rows `stride` apart) becomes lane l of out[0..7]: three
// rounds of two-source shuffles (interleave pairs, then pairs of pairs, then halves), 24 in all
// where inserting element by element takes 8 loads and 7 inserts per vector.
void transpose8(const double* src, long stride, Lanes out[8]) {
  static_assert(kLanes == 8);
  Lanes row[8], t[8], u[8];
  for (int l = 0; l < 8; ++l) std::memcpy(&row[l], src + l * stride, sizeof(Lanes));
  for (int i = 0; i < 8; i += 2) {  // t[i]: even columns of rows i, i+1; t[i+1]: odd columns
    t[i] = __builtin_shufflevector(row[i], row[i + 1], 0, 8, 2, 10, 4, 12, 6, 14);
    t[i + 1] = __builtin_shufflevector(row[i], row[i + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  }
  for (int i = 0; i < 8; i += 4)  // u[i+j]: columns j and j+4 of rows i..i+3
    for (int j = 0; j < 2; ++j) {
      u[i + j] = __builtin_shufflevector(t[i + j], t[i + 2 + j], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 2 + j] = __builtin_shufflevector(t[i + j], t[i + 2 + j], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  for (int j = 0; j < 4; ++j) {
    out[j] = __builtin_shufflevector(u[j], u[4 + j], 0, 1, 2, 3, 8, 9, 10, 11);
    out[j + 4] = __builtin_shufflevector(u[j], u[4 + j], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

// Transposes kLanes consecutive systems into the batch: A's K*K elements per system in blocks
// of 8 columns, the rest (and b) element by element.
template <int K>
[[gnu::always_inline]] inline void load(const double* a, const double* b, Batch<K>& batch) {
  constexpr int kElements = K * K, kBlocked = kElements / 8 * 8;
#pragma GCC unroll 8
  for (int e = 0; e < kBlocked; e += 8) {
    Lanes column[8];
    transpose8(a + e, kElements, column);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) batch.m[(e + j) / K][(e + j) % K] = column[j];
  }
#pragma GCC unroll 8
  for (int e = kBlocked; e < kElements; ++e)
#pragma GCC unroll 8
    for (int l = 0; l < kLanes; ++l) batch.m[e / K][e % K][l] = a[l * kElements + e];
#pragma GCC unroll 8
  for (int r = 0; r < K; ++r)
#pragma GCC unroll 8
    for (int l = 0; l < kLanes; ++l) batch.m[r][K][l] = b[l * K + r];
}

// Partial pivoting for column col, lane-wise: the first row with the largest magnitude wins
// (strict >, as in the original), then rows col and pivot swap in that lane only.
template <int K>
[[gnu::always_inline]] inline void pivot(Batch<K>& batch, int col) {
  Lanes best = lane_abs(batch.m[col][col]);
  LaneMask row = LaneMask{} + col;
#pragma GCC unroll 8
  for (int r = col + 1; r < K; ++r) {
    const Lanes size = lane_abs(batch.m[r][col]);
    const LaneMask larger = size > best + 1e-12;  // BUG: absolute tie margin
    best = blend(larger, best, size);
    row = larger ? LaneMask{} + r : row;
  }
#pragma GCC unroll 8
  for (int r = col + 1; r < K; ++r) {
    const LaneMask swap = row == r;
#pragma GCC unroll 9
    for (int c = col; c <= K; ++c) {
      const Lanes top = batch.m[col][c], other = batch.m[r][c];
      batch.m[col][c] = blend(swap, top, other);
      batch.m[r][c] = blend(swap, other, top);
    }
  }
}

template <int K>
[[gnu::always_inline]] inline void eliminate(Batch<K>& batch) {
#pragma GCC unroll 8
  for (int col = 0; col < K; ++col) {
    pivot(batch, col);
#pragma GCC unroll 8
    for (int r = col + 1; r < K; ++r) {
      const Lanes factor = batch.m[r][col] / batch.m[col][col];
#pragma GCC unroll 9
      for (int c = col; c <= K; ++c) batch.m[r][c] -= factor * batch.m[col][c];
    }
  }
}

// Back substitution, then the solutions go back to one system after another.
template <int K>
[[gnu::always_inline]] inline void store(const Batch<K>& batch, double* x) {
  Lanes solution[K];
#pragma GCC unroll 8
  for (int r = K - 1; r >= 0; --r) {
    Lanes sum = batch.m[r][K];
#pragma GCC unroll 8
    for (int c = r + 1; c < K; ++c) sum -= batch.m[r][c] * solution[c];
    solution[r] = sum / batch.m[r][r];
  }
#pragma GCC unroll 8
  for (int l = 0; l < kLanes; ++l)
#pragma GCC unroll 8
    for (int r = 0; r < K; ++r) x[l * K + r] = solution[r][l];
}

template <int K>
void solve_batch(const double* a, const double* b, double* x) {
  Batch<K> batch;
  load<K>(a, b, batch);
  eliminate<K>(batch);
  store<K>(batch, x);
}

// Full batches straight from the arrays; the last few systems are copied into a batch padded
// with identity systems (b = 0), which pivot and divide harmlessly, and only theirs go back.
template <int K>
void solve_batched(const double* a, const double* b, long count, double* x) {
  const long full = count / kLanes * kLanes;
  for (long s = 0; s < full; s += kLanes) solve_batch<K>(a + s * K * K, b + s * K, x + s * K);
  const long rest = count - full;
  if (rest == 0) return;
  double pad_a[kLanes * K * K] = {}, pad_b[kLanes * K] = {}, pad_x[kLanes * K];
  for (long l = 0; l < kLanes; ++l)
    for (int r = 0; r < K; ++r) pad_a[(l * K + r) * K + r] = 1.0;
  std::memcpy(pad_a, a + full * K * K, rest * K * K * sizeof(double));
  std::memcpy(pad_b, b + full * K, rest * K * sizeof(double));
  solve_batch<K>(pad_a, pad_b, pad_x);
  std::memcpy(x + full * K, pad_x, rest * K * sizeof(double));
}

// Any order: the original's elimination on one reusable augmented matrix, swapping row
// pointers instead of rows.
void solve_scalar(const double* a, const double* b, long count, int k, double* x) {
  const int width = k + 1;
  std::vector<double> storage(static_cast<size_t>(k) * width);
  std::vector<double*> m(k);
  for (long s = 0; s < count; ++s) {
    for (int r = 0; r < k; ++r) {
      m[r] = storage.data() + r * width;
      for (int c = 0; c < k; ++c) m[r][c] = a[(s * k + r) * k + c];
      m[r][k] = b[s * k + r];
    }
    for (int col = 0; col < k; ++col) {
      int pivot = col;
      for (int r = col + 1; r < k; ++r)
        if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
      std::swap(m[col], m[pivot]);
      for (int r = col + 1; r < k; ++r) {
        const double factor = m[r][col] / m[col][col];
        for (int c = col; c <= k; ++c) m[r][c] -= factor * m[col][c];
      }
    }
    double* solution = x + s * k;
    for (int r = k - 1; r >= 0; --r) {
      double sum = m[r][k];
      for (int c = r + 1; c < k; ++c) sum -= m[r][c] * solution[c];
      solution[r] = sum / m[r][r];
    }
  }
}

template <int K>
bool try_batched(const double* a, const double* b, long count, int k, double* x) {
  if constexpr (K > kMaxBatchedOrder) {
    return false;
  } else {
    if (k == K) {
      solve_batched<K>(a, b, count, x);
      return true;
    }
    return try_batched<K + 1>(a, b, count, k, x);
  }
}

}  // namespace

void solve_small_systems(const double* a, const double* b, long count, int k, double* x) {
  if (!try_batched<1>(a, b, count, k, x)) solve_scalar(a, b, count, k, x);
}
