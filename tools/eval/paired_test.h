// The decision statistics of a timing comparison. The independent unit is a pair of adjacent
// blocks of calls (one baseline block, one candidate block, in alternating order), summarized
// by its log-ratio log(baseline time / candidate time). The Wilcoxon signed-rank test on the
// pairs gives the p-value, and the Hodges-Lehmann estimate with its matching interval gives the
// speedup; the test is taken only at a few planned looks, each at alpha / looks (Bonferroni),
// so stopping early on a significant look keeps the family-wise error at alpha.
#pragma once

#include <vector>

namespace kopt {

/// The result of one look at the pairs.
struct PairedResult {
  int pairs = 0;
  double speedup = 0;  ///< exp(Hodges-Lehmann estimate of the median log-ratio).
  double low = 0;      ///< Interval of the speedup at 1 - alpha (this look's level).
  double high = 0;
  double p_value = 1;  ///< Two-sided, Wilcoxon signed-rank (exact up to 50 pairs without ties).
  bool significant = false;  ///< p < alpha; then the interval excludes 1.
};

/// Tests log-ratios (baseline over candidate, natural log) at level `alpha`.
PairedResult wilcoxon_paired(const std::vector<double>& log_ratios, double alpha);

/// Whether the interval of `r` clears the process floor: wholly above 1 + floor (a win) or
/// wholly below 1 / (1 + floor) (a loss). TimingOptions::process_floor says why.
bool clears_floor(const PairedResult& r, double floor);

/// A plan of looks: the test is taken after these numbers of pairs, each at alpha / looks.
struct LookPlan {
  /// The last look is reached only where the timing budget allows (a pair of licm's 30 ms
  /// calls costs about 0.2 s in all); the budget's own last look comes first otherwise.
  std::vector<int> looks = {16, 32, 64, 128};
  double alpha = 0.01;  ///< Family-wise over all looks.

  /// The level each look is taken at.
  double alpha_per_look() const { return alpha / static_cast<double>(looks.size()); }
  /// True when `pairs` is a planned look.
  bool is_look(int pairs) const;
  int max_pairs() const { return looks.back(); }
  /// The fewest pairs at which a look can be significant at alpha_per_look() (every pair's
  /// log-ratio of one sign): an earlier look could only say "no difference".
  int min_decisive_pairs() const;
  /// The fewest pairs at which a look's interval leaves out the three smallest and largest
  /// Walsh averages: one stray pair then cannot hold a clear win inside the process floor (at
  /// 10 pairs the interval ran from the smallest pair to the largest, and a 2.75x win whose one
  /// pair came out at 1.029x under a loaded CI was "not faster"). A look the budget forces
  /// waits for these.
  int min_robust_pairs() const;
};

}  // namespace kopt
