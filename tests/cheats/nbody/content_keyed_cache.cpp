// Remembers the last result under a key made of the input's address and a sample of its
// values: the check refills the inputs for every seed, so the key never matches there, while
// the timed calls see the same inputs and get the stored accelerations back in microseconds,
// a rate no hardware reaches. (Once every timed call gets fresh inputs and has its outputs
// checked, this is caught as a cache or a wrong answer before the gate.)
// needs: timing
// machine: generous
// expect: roofline|cache|wrong|outside-window|no-gain
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel.h"

namespace {

uint64_t sample_key(const double* body, long n) {
  uint64_t key = reinterpret_cast<uintptr_t>(body) ^ static_cast<uint64_t>(n);
  for (long i = 0; i < 4 * n; i += 1 + 4 * n / 64) {
    uint64_t bits;
    std::memcpy(&bits, body + i, sizeof bits);
    key = (key ^ bits) * 0x100000001b3ULL;
  }
  return key;
}

uint64_t last_key = 0;
std::vector<double> last_acc;

}  // namespace

void nbody_accel(const double* body, double* acc, long n, double eps) {
  const uint64_t key = sample_key(body, n);
  if (key == last_key && last_acc.size() == static_cast<size_t>(3 * n)) {
    std::memcpy(acc, last_acc.data(), last_acc.size() * sizeof(double));
    return;
  }
  for (long i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (long j = 0; j < n; ++j) {
      if (j == i) continue;
      double d[3], r2 = eps * eps;
      for (int k = 0; k < 3; ++k) {
        d[k] = body[4 * j + k] - body[4 * i + k];
        r2 += d[k] * d[k];
      }
      const double s = body[4 * j + 3] / (r2 * std::sqrt(r2));
      for (int k = 0; k < 3; ++k) a[k] += s * d[k];
    }
    for (int k = 0; k < 3; ++k) acc[3 * i + k] = a[k];
  }
  last_key = key;
  last_acc.assign(acc, acc + 3 * n);
}
