#include "tools/newbench/work_fit.h"

#include <fmt/format.h>

#include <cmath>

#include "tools/roofline/static_cpu.h"
#include "util/strings.h"

namespace kopt {

namespace {

constexpr long kSizes[] = {8, 16, 32, 64, 128};

// Solves the 4x4 system m x = y by Gaussian elimination with partial pivoting.
bool solve(double m[4][4], double y[4], double x[4]) {
  for (int col = 0; col < 4; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 4; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[pivot][col])) pivot = r;
    if (std::fabs(m[pivot][col]) < 1e-300) return false;
    std::swap(m[col], m[pivot]);
    std::swap(y[col], y[pivot]);
    for (int r = col + 1; r < 4; ++r) {
      const double f = m[r][col] / m[col][col];
      for (int c = col; c < 4; ++c) m[r][c] -= f * m[col][c];
      y[r] -= f * y[col];
    }
  }
  for (int r = 3; r >= 0; --r) {
    double s = y[r];
    for (int c = r + 1; c < 4; ++c) s -= m[r][c] * x[c];
    x[r] = s / m[r][r];
  }
  return true;
}

// A coefficient as short text: whole numbers exactly, others to four significant digits.
std::string coefficient(double c) {
  const double whole = std::round(c);
  if (std::fabs(c - whole) < 1e-6 * std::max(1.0, std::fabs(c)))
    return fmt::format("{:.0f}", whole);
  return fmt::format("{:.4g}", c);
}

std::string polynomial_text(const double (&k)[4]) {
  static const char* kPowers[] = {"*n^3", "*n^2", "*n", ""};
  std::string text;
  for (int i = 0; i < 4; ++i) {
    const double magnitude = std::fabs(k[i]);
    if (coefficient(magnitude) == "0") continue;
    std::string term = coefficient(magnitude) + kPowers[i];
    if (term.rfind("1*", 0) == 0) term = term.substr(2);
    text += text.empty() ? (k[i] < 0 ? "-" : "") + term : (k[i] < 0 ? " - " : " + ") + term;
  }
  return text.empty() ? "0" : text;
}

std::string power_law(double x0, double y0, double x1, double y1) {
  if (y0 <= 0 || y1 <= 0) return "0";
  const double p = std::log(y1 / y0) / std::log(x1 / x0);
  return fmt::format("{:.4g}*(n/{:.0f})^{:.3g}", y1, x1, p);
}

}  // namespace

std::string fit_polynomial(const double (&xs)[4], const double (&ys)[4], double check_x,
                           double check_y) {
  double m[4][4], y[4], k[4];
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = std::pow(xs[r], 3 - c);
    y[r] = ys[r];
  }
  if (!solve(m, y, k)) return "";
  // Round to the text written, so that the check tests the expression the manifest gets.
  for (double& c : k) c = std::stod(coefficient(c));
  const double predicted =
      k[0] * std::pow(check_x, 3) + k[1] * check_x * check_x + k[2] * check_x + k[3];
  if (std::fabs(predicted - check_y) > 0.02 * std::max(1.0, std::fabs(check_y))) return "";
  return polynomial_text(k);
}

WorkProposal propose_work(const ExecutionContext& ctx, const Benchmark& bench,
                          const std::string& source, const Variables& arguments) {
  WorkProposal work;
  double flops[5], bytes[5];
  for (int i = 0; i < 5; ++i) {
    auto estimate = estimate_cpu(ctx, bench, source, kSizes[i], arguments);
    if (!estimate) {
      work.source = "ESTIMATE NEEDED: kopt's static counts failed (" + estimate.error().message +
                    "); write flops and bytes per call as expressions of n";
      return work;
    }
    const auto& c = estimate->counts.counters;
    flops[i] = c.fp32_flops + c.fp64_flops;
    bytes[i] = c.dram_bytes;
  }
  const double xs[4] = {8, 16, 32, 64};
  const std::string f = fit_polynomial(xs, {flops[0], flops[1], flops[2], flops[3]}, 128, flops[4]);
  const std::string b = fit_polynomial(xs, {bytes[0], bytes[1], bytes[2], bytes[3]}, 128, bytes[4]);
  work.flops = f.empty() ? power_law(64, flops[3], 128, flops[4]) : f;
  work.bytes = b.empty() ? power_law(64, bytes[3], 128, bytes[4]) : b;
  work.source = (f.empty() || b.empty())
                    ? "ESTIMATE: kopt's static counts (clang IR) at n = 64 and 128, extended as a "
                      "power law; check them"
                    : "kopt's static counts of the original (clang IR, loop trip counts), fitted "
                      "exactly by a polynomial of n; check them";
  return work;
}

}  // namespace kopt
