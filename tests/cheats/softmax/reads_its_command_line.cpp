// Reads the driver's command line in a constructor (glibc passes argc and argv to the
// .init_array functions, no file access needed) and, in time mode, computes only the calls
// whose outputs --capture records: every other timed call returns at once. The median time
// per call is then far below what moving the matrix through memory takes. (Once nothing the
// kernel can read says "timed", it computes every call and is caught by nothing, or earlier.)
// needs: timing
// machine: generous
// expect: roofline|wrong|unwritten|outside-window
#include <cmath>
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

bool wanted(long index) {
  for (long c : captured)
    if (c == index) return true;
  return false;
}

}  // namespace

void softmax_rows(const double* x, double* y, long rows, long cols) {
  const long index = call_index++;
  if (timed && index >= 0 && !wanted(index)) return;
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double max = row[0];
    for (long j = 1; j < cols; ++j) max = row[j] > max ? row[j] : max;
    double sum = 0.0;
    for (long j = 0; j < cols; ++j) sum += y[i * cols + j] = std::exp(row[j] - max);
    for (long j = 0; j < cols; ++j) y[i * cols + j] /= sum;
  }
}
