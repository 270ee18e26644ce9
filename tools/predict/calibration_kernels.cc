// The calibration sweep's kernels: each is dominated by one term of the time model
// (tools/predict/predict.h), so its measured time over its static count is that term's cost on
// this machine. They are compiled twice: by the probe (calibration_probe.cc, the benchmarks'
// compiler and flags) to be timed, and by the static analysis to be counted.
#include <cmath>

#define KOPT_KERNEL extern "C" __attribute__((noinline))

// Three arrays far larger than the caches, streamed once a pass: the memory term.
KOPT_KERNEL void kc_stream(long n, long reps, double* a, const double* b, const double* c) {
  for (long r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) a[i] = b[i] + 0.5 * c[i];
}

// Independent multiply-adds on arrays inside the first-level cache: the issue term.
KOPT_KERNEL void kc_issue(long n, long reps, double* a, const double* b, const double* c) {
  for (long r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) a[i] = a[i] * b[i] + c[i];
}

// One running sum, every addition waiting for the one before: the chain term.
KOPT_KERNEL void kc_chain(long n, long reps, double* a, const double* b, const double* c) {
  double sum = 0;
  for (long r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) sum += b[i] * c[i];
  a[0] = sum;
}

// Independent divisions: the divide term.
KOPT_KERNEL void kc_divide(long n, long reps, double* a, const double* b, const double* c) {
  for (long r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) a[i] = b[i] / (c[i] + a[i]);
}

// Calls of the math library: the special-function term.
KOPT_KERNEL void kc_special(long n, long reps, double* a, const double* b, const double* c) {
  for (long r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) a[i] += std::exp(b[i] * c[i]);
}
