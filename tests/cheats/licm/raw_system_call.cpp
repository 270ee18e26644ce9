// Reaches the kernel through an inline system call, around the C library's deny list.
// expect: system
#include <cmath>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(39L) : "rcx", "r11", "memory");  // getpid
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps) + 0 * result;
}
