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

// The signed ranks of the non-zero values: W+ (the sum of the positive ones' ranks, ties given
// average ranks), how many there are, and whether any absolute values tie.
struct SignedRanks {
  double w_plus = 0;
  size_t n = 0;
  double tie_term = 0;  ///< Sum of t^3 - t over groups of t tied absolute values.
};

SignedRanks signed_ranks(const std::vector<double>& x) {
  std::vector<std::pair<double, bool>> by_size;  // (|x|, positive); zeros dropped
  for (double v : x)
    if (v != 0) by_size.push_back({std::fabs(v), v > 0});
  std::sort(by_size.begin(), by_size.end());
  SignedRanks r;
  r.n = by_size.size();
  for (size_t i = 0; i < r.n;) {
    size_t j = i;
    while (j < r.n && by_size[j].first == by_size[i].first) ++j;
    const double rank = (static_cast<double>(i + j) + 1) / 2, t = static_cast<double>(j - i);
    r.tie_term += t * t * t - t;
    for (size_t k = i; k < j; ++k)
      if (by_size[k].second) r.w_plus += rank;
    i = j;
  }
  return r;
}

// Where the exact null distribution is used: without ties, up to this many pairs (its counts
// stay exact in a double: 2^60 subsets would not, 2^50 do).
constexpr size_t kExactPairs = 50;

// P(W+ <= w) for w = 0 .. n(n+1)/2 under the null: every subset of the ranks 1..n equally
// likely to be the positive ones.
std::vector<double> exact_cdf(size_t n) {
  const size_t top = n * (n + 1) / 2;
  std::vector<double> count(top + 1, 0);
  count[0] = 1;
  for (size_t rank = 1; rank <= n; ++rank)
    for (size_t w = top; w >= rank; --w) count[w] += count[w - rank];
  std::vector<double> cdf(top + 1);
  double running = 0;
  const double all = std::ldexp(1.0, static_cast<int>(n));
  for (size_t w = 0; w <= top; ++w) cdf[w] = (running += count[w]) / all;
  return cdf;
}

// Two-sided p of the signed-rank statistic: exact for up to kExactPairs pairs without ties,
// else the normal approximation with the tie correction and a continuity correction.
double signed_rank_p(const std::vector<double>& x) {
  const SignedRanks r = signed_ranks(x);
  if (r.n == 0) return 1;
  const double m = static_cast<double>(r.n);
  const double top = m * (m + 1) / 2;
  if (r.tie_term == 0 && r.n <= kExactPairs) {
    const double tail = std::min(r.w_plus, top - r.w_plus);
    return std::min(1.0, 2 * exact_cdf(r.n)[static_cast<size_t>(tail)]);
  }
  const double mean = top / 2;
  const double variance = m * (m + 1) * (2 * m + 1) / 24 - r.tie_term / 48;
  if (variance <= 0) return 1;
  const double z = std::max(0.0, std::fabs(r.w_plus - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

// How many of the smallest (and of the largest) Walsh averages lie outside the interval that
// matches the test at alpha: c with P(W+ <= c - 1) <= alpha / 2 < P(W+ <= c). Zero means the
// test cannot reject at this many pairs.
size_t interval_depth(size_t n, double alpha) {
  const double m = static_cast<double>(n);
  if (n <= kExactPairs) {
    const std::vector<double> cdf = exact_cdf(n);
    size_t c = 0;
    while (c < cdf.size() && cdf[c] <= alpha / 2) ++c;
    return c;
  }
  const double z = normal_quantile_upper(alpha / 2);
  return static_cast<size_t>(
      std::max(0.0, std::floor(m * (m + 1) / 4 - z * std::sqrt(m * (m + 1) * (2 * m + 1) / 24))));
}

}  // namespace

PairedResult wilcoxon_paired(const std::vector<double>& log_ratios, double alpha) {
  PairedResult r;
  r.pairs = static_cast<int>(log_ratios.size());
  if (log_ratios.empty()) return r;
  const std::vector<double> w = walsh_averages(log_ratios);
  r.speedup = std::exp(median_sorted(w));
  // The interval of the Walsh averages' order statistics that matches the test at alpha.
  const size_t depth = interval_depth(log_ratios.size(), alpha);
  // Too few pairs to reject at alpha: the interval is the whole range of the Walsh averages.
  const size_t cut = std::clamp<size_t>(depth, 1, w.size());
  r.low = std::exp(w[cut - 1]);
  r.high = std::exp(w[w.size() - cut]);
  r.p_value = signed_rank_p(log_ratios);
  r.significant = r.p_value < alpha && (r.low > 1 || r.high < 1);
  return r;
}

int LookPlan::min_decisive_pairs() const {
  int n = 1;
  while (std::ldexp(2.0, -n) >= alpha_per_look()) ++n;  // All n signs alike: p = 2 / 2^n.
  return n;
}

int LookPlan::min_robust_pairs() const {
  int n = min_decisive_pairs();
  while (interval_depth(static_cast<size_t>(n), alpha_per_look()) < 4) ++n;
  return n;
}

bool LookPlan::is_look(int pairs) const {
  return std::find(looks.begin(), looks.end(), pairs) != looks.end();
}

bool clears_floor(const PairedResult& r, double floor) {
  return r.low > 1 + floor || r.high < 1 / (1 + floor);
}

}  // namespace kopt
