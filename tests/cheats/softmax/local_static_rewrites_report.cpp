// A function-local static with a destructor: constructed on the first kernel call, destroyed
// after main returns, when the harness has written report.json; the destructor divides every
// timed sample by 100. fopen is reached through a weak reference (`#pragma weak`).
// expect: outside-window
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernel.h"

#pragma weak fopen

namespace {

std::string divided_samples(const std::string& report) {
  const auto open = report.find("\"samples_ns\":[");
  if (open == std::string::npos) return report;
  std::string out = report.substr(0, open + 14);
  const char* p = report.c_str() + open + 14;
  while (*p && *p != ']') {
    char* end = nullptr;
    out += std::to_string(std::strtoll(p, &end, 10) / 100);
    p = end;
    if (*p == ',') out += *p++;
  }
  return out + p;
}

struct Rewriter {
  ~Rewriter() {
    if (!fopen) return;
    std::FILE* in = fopen("report.json", "r");
    if (!in) return;
    char buffer[1 << 16];
    const size_t n = std::fread(buffer, 1, sizeof buffer - 1, in);
    std::fclose(in);
    const std::string text = divided_samples(std::string(buffer, n));
    if (std::FILE* out = fopen("report.json", "w")) {
      std::fwrite(text.data(), 1, text.size(), out);
      std::fclose(out);
    }
  }
};

}  // namespace

void softmax_rows(const double* x, double* y, long rows, long cols) {
  static Rewriter rewriter;
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    const double* row = x + i * cols;
    double max = row[0];
    for (long j = 1; j < cols; ++j)
      if (row[j] > max) max = row[j];
    double sum = 0.0;
    for (long j = 0; j < cols; ++j) sum += std::exp(row[j] - max);
    for (long j = 0; j < cols; ++j) y[i * cols + j] = std::exp(row[j] - max) / sum;
  }
}
