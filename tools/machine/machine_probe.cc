// kopt's machine probe: kopt compiles this file at run time with the benchmarks' toolchain
// (g++ -O3 -march=native -fopenmp -ffp-contract=fast) inside the sandbox, runs it with
// OMP_NUM_THREADS set to one and to every core, and reads one JSON line per measurement.
//
//   probe triad BYTES REPS   STREAM triad a = b + s * c over three arrays of BYTES in total;
//                            best pass, counted as STREAM does (24 bytes per element)
//   probe fma64|fma32 SEC    independent FMA chains on the widest vectors; best of 5 runs
//   probe int32 SEC          independent 32-bit integer add-xor chains on the widest vectors
//
// (The .cc suffix keeps it out of kopt's own build, which takes every .cpp under tools/.)
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
constexpr int kChains = 16;  // 32 registers; FMA latency 4 x 2 ports needs at least 8
#elif defined(__AVX__)
constexpr int kVectorBytes = 32;
constexpr int kChains = 10;  // 16 registers; latency 4-5 x 2 ports
#else
constexpr int kVectorBytes = 16;
constexpr int kChains = 8;
#endif

typedef double vf64 __attribute__((vector_size(kVectorBytes)));
typedef float vf32 __attribute__((vector_size(kVectorBytes)));
typedef int vi32 __attribute__((vector_size(kVectorBytes)));

template <class V, bool kMultiply>
V chains(long iterations, V x, V y) {
  V acc[kChains];
  acc[0] = y;
  for (int j = 1; j < kChains; ++j) acc[j] = acc[j - 1] + y;
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kChains; ++j) {
      // The integer chain mixes in an xor so that the compiler cannot fold it into a multiply.
      if constexpr (kMultiply)
        acc[j] = acc[j] * x + y;
      else
        acc[j] = (acc[j] + y) ^ x;
    }
  }
  V sum = acc[0];
  for (int j = 1; j < kChains; ++j) sum += acc[j];
  return sum;
}

// Runs the chains on every thread; returns the best seconds of `runs` parallel runs.
template <class V, bool kMultiply>
double time_chains(long iterations, V x, V y, int runs, double& sink) {
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    double start = 0, stop = 0;
#pragma omp parallel reduction(+ : sink)
    {
#pragma omp barrier
#pragma omp master
      start = omp_get_wtime();
      V s = chains<V, kMultiply>(iterations, x, y);
#pragma omp barrier
#pragma omp master
      stop = omp_get_wtime();
      sink += static_cast<double>(s[0]);
    }
    if (stop - start < best) best = stop - start;
  }
  return best;
}

template <class V, bool kMultiply>
void compute_peak(const char* kind, double seconds, V x, V y, int ops_per_lane) {
  double sink = 0;
  long iterations = 1 << 16;
  while (time_chains<V, kMultiply>(iterations, x, y, 1, sink) < seconds / 5) iterations *= 2;
  const double best = time_chains<V, kMultiply>(iterations, x, y, 5, sink);
  const int lanes = kVectorBytes / static_cast<int>(sizeof(V{}[0]));
  const double ops =
      static_cast<double>(omp_get_max_threads()) * iterations * kChains * lanes * ops_per_lane;
  std::printf(
      "{\"kind\": \"%s\", \"threads\": %d, \"vector_bits\": %d, \"chains\": %d, \"ops\": %.17g, "
      "\"seconds\": %.9g, \"rate\": %.9g, \"sink\": %g}\n",
      kind, omp_get_max_threads(), kVectorBytes * 8, kChains, ops, best, ops / best, sink);
}

void triad(double total_bytes, int reps) {
  const long n = static_cast<long>(total_bytes / 24);
  double* a = static_cast<double*>(std::aligned_alloc(64, ((n * 8 + 63) / 64) * 64));
  double* b = static_cast<double*>(std::aligned_alloc(64, ((n * 8 + 63) / 64) * 64));
  double* c = static_cast<double*>(std::aligned_alloc(64, ((n * 8 + 63) / 64) * 64));
  if (!a || !b || !c) {
    std::fprintf(stderr, "probe: cannot allocate %.0f bytes\n", total_bytes);
    std::exit(2);
  }
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) a[i] = 0, b[i] = 1.0 + i % 7, c[i] = 2.0;
  const double s = 3.0;
  // A working set that fits a cache takes microseconds a pass: each timed pass sweeps it
  // `inner` times (about 64 MB in all), in one parallel region, so that the timer and the
  // threads' start are not what is measured.
  const long inner = std::max(1L, static_cast<long>(64e6 / (24.0 * n)));
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double start = omp_get_wtime();
#pragma omp parallel
    for (long k = 0; k < inner; ++k) {
      // nowait: each thread sweeps its own static share again at once (the same share every
      // pass, so no thread touches another's elements); a barrier per pass would be what a
      // small working set measures.
#pragma omp for simd schedule(static) nowait
      for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i] + static_cast<double>(k) * 0.0;
    }
    const double t = (omp_get_wtime() - start) / static_cast<double>(inner);
    if (t < best) best = t;
  }
  const double bytes = 24.0 * n;
  std::printf(
      "{\"kind\": \"triad\", \"threads\": %d, \"elements\": %ld, \"bytes\": %.17g, "
      "\"seconds\": %.9g, \"rate\": %.9g, \"sink\": %g}\n",
      omp_get_max_threads(), n, bytes, best, bytes / best, a[n / 2]);
  std::free(a), std::free(b), std::free(c);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: probe triad BYTES REPS | fma64|fma32|int32 SECONDS\n");
    return 2;
  }
  const char* what = argv[1];
  const double value = std::atof(argv[2]);
  if (!std::strcmp(what, "triad"))
    triad(value, argc > 3 ? std::atoi(argv[3]) : 10);
  else if (!std::strcmp(what, "fma64"))
    compute_peak<vf64, true>("fma64", value, vf64{} + 0.999999, vf64{} + 1e-7, 2);
  else if (!std::strcmp(what, "fma32"))
    compute_peak<vf32, true>("fma32", value, vf32{} + 0.999f, vf32{} + 1e-4f, 2);
  else if (!std::strcmp(what, "int32"))
    compute_peak<vi32, false>("int32", value, vi32{} + 5, vi32{} + 3, 2);
  else
    return 2;
  return 0;
}
