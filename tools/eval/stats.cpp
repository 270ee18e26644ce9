#include "tools/eval/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace kopt {

std::vector<double> pooled(const Runs& runs) {
  std::vector<double> all;
  for (const auto& run : runs) all.insert(all.end(), run.begin(), run.end());
  return all;
}

double upper_median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

Spread spread(const Runs& runs) {
  std::vector<double> all = pooled(runs);
  Spread s;
  s.count = all.size();
  if (all.empty()) return s;
  s.median = quantile(all, 0.5);
  s.p25 = quantile(all, 0.25);
  s.p75 = quantile(all, 0.75);
  s.min = *std::min_element(all.begin(), all.end());
  s.max = *std::max_element(all.begin(), all.end());
  return s;
}

namespace {

double resampled_median(const Runs& runs, std::mt19937_64& rng, std::vector<double>& scratch) {
  scratch.clear();
  std::uniform_int_distribution<size_t> pick_run(0, runs.size() - 1);
  for (size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[pick_run(rng)];
    std::uniform_int_distribution<size_t> pick(0, run.size() - 1);
    for (size_t i = 0; i < run.size(); ++i) scratch.push_back(run[pick(rng)]);
  }
  auto mid = scratch.begin() + static_cast<long>(scratch.size() / 2);
  std::nth_element(scratch.begin(), mid, scratch.end());
  return *mid;
}

Runs non_empty(const Runs& runs) {
  Runs kept;
  for (const auto& run : runs)
    if (!run.empty()) kept.push_back(run);
  return kept;
}

}  // namespace

SpeedupInterval bootstrap_speedup(const Runs& baseline_runs, const Runs& candidate_runs,
                                  double confidence, int resamples, uint64_t seed) {
  const Runs baseline = non_empty(baseline_runs), candidate = non_empty(candidate_runs);
  SpeedupInterval result;
  if (baseline.empty() || candidate.empty()) return result;
  result.speedup = spread(baseline).median / spread(candidate).median;
  std::mt19937_64 rng(seed);
  std::vector<double> ratios, scratch;
  ratios.reserve(static_cast<size_t>(resamples));
  for (int i = 0; i < resamples; ++i) {
    const double b = resampled_median(baseline, rng, scratch);
    const double c = resampled_median(candidate, rng, scratch);
    ratios.push_back(b / c);
  }
  const double tail = (1 - confidence) / 2;
  result.low = quantile(ratios, tail);
  result.high = quantile(ratios, 1 - tail);
  return result;
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return 1;
  std::vector<std::pair<double, int>> all;
  for (double v : a) all.push_back({v, 0});
  for (double v : b) all.push_back({v, 1});
  std::sort(all.begin(), all.end());
  double rank_sum_a = 0, tie_term = 0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double rank = (static_cast<double>(i + j) + 1) / 2;  // Average of ranks i+1..j.
    const double ties = static_cast<double>(j - i);
    tie_term += ties * ties * ties - ties;
    for (size_t k = i; k < j; ++k)
      if (all[k].second == 0) rank_sum_a += rank;
    i = j;
  }
  const double m1 = static_cast<double>(n1), m2 = static_cast<double>(n2), n = m1 + m2;
  const double u = rank_sum_a - m1 * (m1 + 1) / 2;
  const double mean = m1 * m2 / 2;
  const double variance = m1 * m2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) return 1;
  const double z = (std::fabs(u - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(std::max(0.0, z) / std::sqrt(2.0)));
}

}  // namespace kopt
