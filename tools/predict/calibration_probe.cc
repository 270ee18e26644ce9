// The calibration sweep's timer: runs one kernel of calibration_kernels.cc (pasted above this
// file by tools/predict/calibration.cpp) at a size, best of a few runs, and prints
// {"kernel": ..., "seconds": ...}. Usage: probe KERNEL N REPS.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Kernel = void (*)(long, long, double*, const double*, const double*);

Kernel find(const char* name) {
  const struct {
    const char* name;
    Kernel kernel;
  } kernels[] = {{"kc_stream", kc_stream},
                 {"kc_issue", kc_issue},
                 {"kc_chain", kc_chain},
                 {"kc_divide", kc_divide},
                 {"kc_special", kc_special}};
  for (const auto& k : kernels)
    if (std::strcmp(k.name, name) == 0) return k.kernel;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const Kernel kernel = find(argv[1]);
  const long n = std::atol(argv[2]), reps = std::atol(argv[3]);
  if (!kernel || n < 1 || reps < 1) return 2;
  std::vector<double> a(n), b(n), c(n);
  for (long i = 0; i < n; ++i) {  // b in [0.5, 1), c in [0, 0.5): every kernel stays finite
    a[i] = 1.0;
    b[i] = 0.5 + 0.5 * static_cast<double>((i * 7919) % 1000) / 1000.0;
    c[i] = 0.5 * static_cast<double>((i * 104729) % 1000) / 1000.0;
  }
  double best = 1e300;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    kernel(n, reps, a.data(), b.data(), c.data());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = seconds < best ? seconds : best;
  }
  double check = 0;
  for (long i = 0; i < n; ++i) check += a[i];
  std::printf("{\"kernel\": \"%s\", \"seconds\": %.9g, \"check\": %.6g}\n", argv[1], best, check);
  return 0;
}
