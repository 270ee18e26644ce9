// Class 5 (numbers produced inside the candidate's process): kopt clocks the calls itself over a
// pipe, from writing "go" to reading the harness's "done". This kernel writes a "done" reply on
// the reply channel (fd 3, which the system call filter leaves writable for the harness) at the
// start of each call, so that kopt's clock would stop early. writev goes through where the import
// scan refuses write. The reply carries no nonce of the block and comes out of turn.
// kopt-driver/4: the block's child closes the reply channel before the first call, so the
// forgery goes nowhere.
// expect: protocol|no-gain
// needs: timing
#include <sys/uio.h>

#include <cmath>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  char forged[] = "done\n";
  iovec line{forged, sizeof forged - 1};
  (void)!writev(3, &line, 1);
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
}
