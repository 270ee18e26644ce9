#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include <cmath>
#include <vector>

#include "kernel.h"

// Bodies are copied into separate x, y, z, m arrays (struct of arrays) so the inner loop over j
// runs kLanes bodies per vector; pow(r2, 1.5) becomes r2 * sqrt(r2) and one division. The
// vectors are written out (GCC vector types) rather than left to `omp simd`: std::sqrt may set
// errno, so without -fno-math-errno the compiler keeps that loop scalar, one sqrt and one
// division per pair, which is what bounds it. The j == i term is not skipped: its displacement
// is zero, so (eps > 0) it adds exactly zero; the arrays are padded to whole vectors with
// massless bodies at the origin, which add zero too.

namespace {

constexpr int kLanes = 8;
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));

Lanes lane_sqrt(Lanes v) {
#ifdef __AVX512F__
  return _mm512_sqrt_pd(v);
#else
  for (int l = 0; l < kLanes; ++l) v[l] = std::sqrt(v[l]);
  return v;
#endif
}

double lane_sum(Lanes v) {
  double sum = 0.0;
  for (int l = 0; l < kLanes; ++l) sum += v[l];
  return sum;
}

struct Bodies {
  std::vector<Lanes> x, y, z, m;  // kLanes bodies per element
};

Bodies struct_of_arrays(const double* body, long n) {
  const long vectors = (n + kLanes - 1) / kLanes;
  Bodies b{std::vector<Lanes>(vectors, Lanes{}), std::vector<Lanes>(vectors, Lanes{}),
           std::vector<Lanes>(vectors, Lanes{}), std::vector<Lanes>(vectors, Lanes{})};
  for (long j = 0; j < n; ++j) {
    b.x[j / kLanes][j % kLanes] = body[4 * j];
    b.y[j / kLanes][j % kLanes] = body[4 * j + 1];
    b.z[j / kLanes][j % kLanes] = body[4 * j + 2];
    b.m[j / kLanes][j % kLanes] = body[4 * j + 3];
  }
  return b;
}

// Acceleration of the body at (xi, yi, zi) from all bodies, in kLanes partial sums per axis.
void accelerate(const Bodies& b, double xi, double yi, double zi, double eps2, double out[3]) {
  Lanes ax = {}, ay = {}, az = {};
  for (size_t v = 0; v < b.x.size(); ++v) {
    const Lanes dx = b.x[v] - xi, dy = b.y[v] - yi, dz = b.z[v] - zi;
    const Lanes r2 = dx * dx + dy * dy + dz * dz + eps2;
    const Lanes f = b.m[v] / (r2 * lane_sqrt(r2));
    ax += f * dx;
    ay += f * dy;
    az += f * dz;
  }
  out[0] = lane_sum(ax);
  out[1] = lane_sum(ay);
  out[2] = lane_sum(az);
}

}  // namespace

void nbody_accel(const double* body, double* acc, long n, double eps) {
  const Bodies b = struct_of_arrays(body, n);
  const double eps2 = eps * eps;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    accelerate(b, body[4 * i], body[4 * i + 1], body[4 * i + 2], eps2, acc + 3 * i);
}
