// Returns at once and finishes the work on a detached thread, so the timer stops early.
// expect: thread
#include <cmath>
#include <thread>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  std::thread([=] {
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < cols; ++j)
        y[i * cols + j] =
            std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
  }).detach();
}
