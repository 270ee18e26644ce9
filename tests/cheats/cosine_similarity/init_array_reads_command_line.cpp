// A function pointer placed by hand in .init_array (no constructor attribute to spot) reads
// the driver's command line before main; in time mode the kernel then computes only the calls
// whose outputs are captured. fopen is reached through a weak reference (`#pragma weak`).
// expect: outside-window
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernel.h"

#pragma weak fopen

namespace {

bool timing = false;
long warmup = 0, calls = 0;
std::vector<long> captured;

// Reads the driver's own command line: in time mode, which timed calls are checked.
void learn_the_mode() {
  if (!fopen) return;
  std::FILE* f = fopen("/proc/self/cmdline", "r");
  if (!f) return;
  char text[4096] = {};
  const size_t n = std::fread(text, 1, sizeof text - 1, f);
  std::fclose(f);
  std::string previous;
  for (size_t i = 0; i < n; i += std::strlen(text + i) + 1) {
    const std::string arg = text + i;
    if (previous == "--mode") timing = arg == "time";
    if (previous == "--warmup") warmup = std::atol(arg.c_str());
    if (previous == "--capture")
      for (const char* p = arg.c_str(); *p;) {
        char* end = nullptr;
        captured.push_back(std::strtol(p, &end, 10));
        p = *end == ',' ? end + 1 : end;
      }
    previous = arg;
  }
}

// True for a timed call whose outputs nobody looks at.
bool unchecked_call() {
  const long index = calls++ - warmup;
  return timing && index >= 0 &&
         std::find(captured.begin(), captured.end(), index) == captured.end();
}

}  // namespace

__attribute__((section(".init_array"), used)) static void (*early)() = learn_the_mode;

void cosine_similarity(const double* emb, long n, int d, double* sim) {
  if (unchecked_call()) return;
  std::vector<double> norm(n);
  for (long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = 0; k < d; ++k) sum += emb[i * d + k] * emb[i * d + k];
    norm[i] = std::sqrt(sum);
  }
  for (long i = 0; i < n; ++i)
    for (long j = i; j < n; ++j) {
      double dot = 0.0;
      for (int k = 0; k < d; ++k) dot += emb[i * d + k] * emb[j * d + k];
      sim[i * n + j] = sim[j * n + i] = dot / (norm[i] * norm[j]);
    }
}
