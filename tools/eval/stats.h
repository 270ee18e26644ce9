// The statistics of a timing comparison: medians and spread, a bootstrap confidence interval
// of the speedup that respects process-to-process variation, and a Mann-Whitney U test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kopt {

/// Per-call times in seconds, grouped by the process that measured them.
using Runs = std::vector<std::vector<double>>;

/// Summary of one sample set.
struct Spread {
  double median = 0;
  double p25 = 0;
  double p75 = 0;
  double min = 0;
  double max = 0;
  size_t count = 0;
};

/// Median, quartiles and extremes of all samples of all runs.
Spread spread(const Runs& runs);

/// The middle value (the upper of the two middle ones for an even count; 0 when empty), without
/// interpolation: always one of the measured values.
double upper_median(std::vector<double> values);

/// The q-quantile (0..1) of values, linearly interpolated; values need not be sorted.
double quantile(std::vector<double> values, double q);

/// Speedup = median(baseline) / median(candidate) with a two-level bootstrap interval:
/// processes are resampled, then calls within each chosen process.
struct SpeedupInterval {
  double speedup = 0;
  double low = 0;
  double high = 0;
};
SpeedupInterval bootstrap_speedup(const Runs& baseline, const Runs& candidate, double confidence,
                                  int resamples, uint64_t seed);

/// Two-sided p-value of the Mann-Whitney U test (normal approximation, tie-corrected).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

/// All samples of all runs in one vector.
std::vector<double> pooled(const Runs& runs);

}  // namespace kopt
