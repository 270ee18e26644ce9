// A weak definition of std::chrono::steady_clock::now(): the executable's definition takes
// precedence over libstdc++'s, so the harness's timer reads this clock, which runs 100 times
// slower than the real one (it reads the time through C11's timespec_get, which the clock
// deny list does not name).
// expect: interposition
#include <time.h>

#include <chrono>

#include "kernel.h"

__attribute__((weak)) std::chrono::steady_clock::time_point
std::chrono::steady_clock::now() noexcept {
  timespec ts{};
  timespec_get(&ts, TIME_UTC);
  const long long ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
  return time_point(duration(ns / 100));
}

void prefix_sum(const double* x, double* y, long n) {
  double sum = 0.0;
  for (long i = 0; i < n; ++i) y[i] = sum += x[i];
}
