// What the loop knows between iterations: the original, the human reference, the best
// candidate so far, every attempt and the evidence about the best.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agent/loop/verdict.h"

namespace kopt {

/// One evaluated (or failed) attempt.
struct Attempt {
  std::string id;      ///< "0003"
  std::string parent;  ///< The best it started from.
  int iteration = 0;
  std::string summary;  ///< The optimizer's one line, or why there is no candidate.
  CandidateVerdict verdict;
  bool accepted = false;
  std::string decision;  ///< Why it did or did not become the best (the decision event's reason).
};

struct LoopState {
  std::string original_source;
  CandidateVerdict human;  ///< Human version against the original; status "" without one.
  /// The run's first evaluation: the human version's, or the original's against itself when the
  /// benchmark has no human version. Its original_* figures and work describe the original.
  CandidateVerdict reference;
  std::string best_id = "original";
  std::string best_source;
  CandidateVerdict best;  ///< speedup 1 while the original is best.
  /// The final best timed head to head against the human version (speedup over the human),
  /// when the run found a best and the record holds the comparison.
  std::optional<CandidateVerdict> versus_human;
  std::vector<Attempt> attempts;
  int next_candidate = 1;
  int since_gain = 0;
  /// The optimizer's tool results of the previous iteration, for the analyst.
  std::vector<std::string> optimizer_results;
  std::string evidence_for;  ///< Candidate id the profile and roofline below describe.
  std::string profile = "(not profiled)";
  /// The profile's source lines of the kernel with their share of the time, hottest first.
  std::vector<std::pair<int, double>> hot_lines;
  std::string roofline = "(not classified)";
  double roof_fraction =
      0;  ///< Of the bound the best sits under, measured by `roofline`; 0: unknown.
};

/// "0007" for 7.
std::string candidate_id(int number);

/// The earlier attempts as a few lines for the prompts.
std::string history_text(const LoopState& state);

/// The best's measurements as a few lines for the prompts.
std::string measurements_text(const LoopState& state);

}  // namespace kopt
