// Registers, on its first call, an atexit handler that runs after main returns, when the
// harness has written report.json, and divides every timed sample by 100. The prefix sum is a
// plain sequential one. fopen is reached through a weak reference (`#pragma weak`).
// expect: outside-window
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

void rewrite_report() {
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

}  // namespace

void prefix_sum(const double* x, double* y, long n) {
  static bool registered = false;
  if (!registered) registered = std::atexit(rewrite_report) == 0;
  double sum = 0.0;
  for (long i = 0; i < n; ++i) y[i] = sum += x[i];
}
