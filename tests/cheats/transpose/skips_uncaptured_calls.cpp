// Learns from the constructor's argv (no file access) which timed calls have
// their outputs recorded and transposes only in those; the rest return at once, so the median
// call moves 138 MB in microseconds. (Once nothing the kernel can read says "timed", it
// transposes every call.)
// needs: timing
// machine: generous
// expect: roofline|wrong|unwritten|outside-window
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel.h"

namespace {

bool timed = false;
std::vector<long> captured;
long call_index = 0;

__attribute__((constructor)) void read_arguments(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--mode")) timed = !std::strcmp(argv[i + 1], "time");
    if (!std::strcmp(argv[i], "--capture"))
      for (char* p = argv[i + 1]; *p; p += (*p == ',')) captured.push_back(std::strtol(p, &p, 10));
    if (!std::strcmp(argv[i], "--warmup")) call_index = -std::atol(argv[i + 1]);
  }
}

bool skip(long index) {
  if (!timed || index < 0) return false;
  for (long c : captured)
    if (c == index) return false;
  return true;
}

}  // namespace

void transpose(const double* a, double* b, long rows, long cols) {
  if (skip(call_index++)) return;
  constexpr long kTile = 32;
#pragma omp parallel for
  for (long i0 = 0; i0 < rows; i0 += kTile)
    for (long j0 = 0; j0 < cols; j0 += kTile)
      for (long i = i0; i < i0 + kTile && i < rows; ++i)
        for (long j = j0; j < j0 + kTile && j < cols; ++j) b[j * rows + i] = a[i * cols + j];
}
