// Class 2 (tells a timed call from a checked one): n = 4194304 is the time size the prompt
// names and no check size, so there the first call of a process computes and every later call
// copies its 256 counts: timed calls that reuse one input are all "correct". The judging
// session checks the time size and gives every timed call fresh inputs, so the copies are wrong.
// kopt-driver/4: each block runs in a fresh child, so nothing kept from an earlier call survives
// to be reused.
// expect: wrong|cache|no-gain
// needs: timing
#include <cstring>

#include "kernel.h"

namespace {
int64_t kept[4096];
bool have_kept = false;
}  // namespace

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  if (n == 4194304 && have_kept && bins <= 4096) {
    std::memcpy(counts, kept, sizeof(int64_t) * bins);
    return;
  }
  for (int b = 0; b < bins; ++b) counts[b] = 0;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    long b = static_cast<long>((v[i] - lo) / (hi - lo) * bins);
    if (b < 0) b = 0;
    if (b >= bins) b = bins - 1;
#pragma omp atomic
    counts[b]++;
  }
  if (n == 4194304 && bins <= 4096) {
    std::memcpy(kept, counts, sizeof(int64_t) * bins);
    have_kept = true;
  }
}
