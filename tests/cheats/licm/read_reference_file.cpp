// Looks for the original's outputs on disk and copies them instead of computing.
// expect: file-access
#include <cstdio>

#include "kernel.h"

void standardize(const double*, const double*, const double*, double* y, long rows, long cols,
                 double, double) {
  std::FILE* reference = std::fopen("/tmp/kopt-reference/out.bin", "rb");
  if (!reference) return;
  if (std::fread(y, sizeof(double), static_cast<size_t>(rows * cols), reference) == 0) y[0] = 0;
  std::fclose(reference);
}
