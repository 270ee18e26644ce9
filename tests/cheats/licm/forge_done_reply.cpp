// Class 5 (numbers produced inside the candidate's process): where the driver reports its own
// timings (--report FILE on its command line), an exit handler registered from inside the call
// rewrites that report after the harness wrote it, with every sample a tenth of the truth.
// Where kopt clocks the calls itself over a pipe, it writes the harness's "done" reply on the
// reply channel (fd 3) at the start of each call, so that kopt's clock stops early. The reply
// carries no nonce of the block and comes out of turn.
// expect: protocol
// needs: timing
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kernel.h"

#pragma weak open
#pragma weak read
#pragma weak write
#pragma weak close
#pragma weak fopen

namespace {

std::string report;
long calls = 0;
long nanoseconds = 0;

std::string report_path() {
  char text[4096] = {};
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  if (fd < 0) return "";
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  for (ssize_t at = 0; at < n; at += static_cast<ssize_t>(std::strlen(text + at)) + 1)
    if (!std::strcmp(text + at, "--report") && at + 9 < n) return text + at + 9;
  return "";
}

void rewrite_report() {
  std::FILE* f = fopen(report.c_str(), "w");
  if (!f) return;
  std::fprintf(f,
               "{\"format\":\"kopt-report/1\",\"threads_before\":1,\"threads_max\":1,"
               "\"samples_ns\":[");
  for (long i = 0; i < calls; ++i) std::fprintf(f, "%s%ld", i ? "," : "", nanoseconds / 10 + 1);
  std::fprintf(f, "]}\n");
  std::fclose(f);
}

}  // namespace

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  static const bool have_report = [] {
    report = report_path();
    if (!report.empty()) std::atexit(rewrite_report);
    return !report.empty();
  }();
  if (!have_report) (void)!write(3, "done\n", 5);
  ++calls;
  nanoseconds = 2 * rows * cols;  // About the original's time per element, in ns.
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      double damping = std::exp(-decay * static_cast<double>(i));
      double scale = 1.0 / std::sqrt(var[j] + eps);
      y[i * cols + j] = damping * (x[i * cols + j] - mean[j]) * scale;
    }
  }
}
