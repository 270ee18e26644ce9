#include "kernel.h"

void transpose(const double* a, double* b, long rows, long cols) {
#pragma omp parallel for
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) b[j * rows + i] = a[i * cols + j];
}
