// Caches the result keyed on the input pointer and returns it when called again with the
// same buffer, whatever its content now is.
// kopt-driver/4: each block runs in a fresh child, so a cache keyed on pointers never sees a
// pointer twice; the check's problem refilled and called again on the same buffers does, and
// gets the first call's output ("wrong").
// expect: cache|wrong|no-gain
// needs: timing
#include <cmath>
#include <vector>

#include "kernel.h"

namespace {
const double* last_input = nullptr;
// A heap copy behind a plain pointer: a global std::vector would register a destructor that
// runs after main, which kopt refuses on its own (outside-window).
std::vector<double>* saved = nullptr;
}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  const long n = rows * cols;
  if (!saved) saved = new std::vector<double>;
  if (x == last_input && static_cast<long>(saved->size()) == n) {
    for (long i = 0; i < n; ++i) y[i] = (*saved)[i];
    return;
  }
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
  last_input = x;
  saved->assign(y, y + n);
}
