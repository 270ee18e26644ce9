#include "tools/eval/paired_test.h"

#include <algorithm>
#include <cmath>

namespace kopt {

namespace {

// The upper-tail point z of the standard normal with P(Z > z) = q, by bisection on erfc.
double normal_quantile_upper(double q) {
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {  // Bisection on erfc: plenty for a level.
    const double mid = (lo + hi) / 2;
    if (0.5 * std::erfc(mid / std::sqrt(2.0)) > q)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

std::vector<double> walsh_averages(const std::vector<double>& x) {
  std::vector<double> w;
  w.reserve(x.size() * (x.size() + 1) / 2);
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = i; j < x.size(); ++j) w.push_back((x[i] + x[j]) / 2);
  std::sort(w.begin(), w.end());
  return w;
}

double median_sorted(const std::vector<double>& v) {
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Two-sided p of the signed-rank statistic, zeros dropped, ties given average ranks.
double signed_rank_p(const std::vector<double>& x) {
  std::vector<double> nonzero;
  for (double v : x)
    if (v != 0) nonzero.push_back(v);
  const size_t n = nonzero.size();
  if (n == 0) return 1;
  std::vector<std::pair<double, double>> by_size;  // (|x|, sign)
  for (double v : nonzero) by_size.push_back({std::fabs(v), v > 0 ? 1.0 : -1.0});
  std::sort(by_size.begin(), by_size.end());
  double w_plus = 0, tie_term = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && by_size[j].first == by_size[i].first) ++j;
    const double rank = (static_cast<double>(i + j) + 1) / 2, t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    for (size_t k = i; k < j; ++k)
      if (by_size[k].second > 0) w_plus += rank;
    i = j;
  }
  const double m = static_cast<double>(n);
  const double mean = m * (m + 1) / 4;
  const double variance = m * (m + 1) * (2 * m + 1) / 24 - tie_term / 48;
  if (variance <= 0) return 1;
  const double z = std::max(0.0, std::fabs(w_plus - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace

PairedResult wilcoxon_paired(const std::vector<double>& log_ratios, double alpha) {
  PairedResult r;
  r.pairs = static_cast<int>(log_ratios.size());
  if (log_ratios.empty()) return r;
  const std::vector<double> w = walsh_averages(log_ratios);
  r.speedup = std::exp(median_sorted(w));
  // The interval of the Walsh averages' order statistics that matches the test at alpha.
  const double n = static_cast<double>(log_ratios.size());
  const double z = normal_quantile_upper(alpha / 2);
  const double k = std::floor(n * (n + 1) / 4 - z * std::sqrt(n * (n + 1) * (2 * n + 1) / 24));
  const size_t lo = static_cast<size_t>(std::max(0.0, k));
  const size_t hi = w.size() - 1 - std::min(lo, w.size() - 1);
  r.low = std::exp(w[std::min(lo, w.size() - 1)]);
  r.high = std::exp(w[hi]);
  r.p_value = signed_rank_p(log_ratios);
  r.significant = r.p_value < alpha && (r.low > 1 || r.high < 1);
  return r;
}

bool LookPlan::is_look(int pairs) const {
  return std::find(looks.begin(), looks.end(), pairs) != looks.end();
}

}  // namespace kopt
