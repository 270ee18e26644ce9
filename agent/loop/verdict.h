// What the loop knows of an evaluated candidate, read from its kopt-evaluation/1 document, and
// the feedback the model gets about it. Decisions use only this view, so a replay that serves
// recorded documents makes the same decisions.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/eval/evaluation.h"
#include "tools/eval/outputs.h"
#include "util/json.h"

namespace kopt {

struct CandidateVerdict {
  std::string status;  ///< verdict::* of tools/eval/evaluation.h
  std::string category;
  std::string reason;
  double speedup = 0;  ///< Over the original; 0 when not timed.
  double ci_low = 0;
  double ci_high = 0;
  double p_value = 1;
  double candidate_ms = 0;
  double original_ms = 0;
  double gflops = 0;
  double gbytes_per_s = 0;
  double original_gflops = 0;       ///< The original's achieved rate in the same evaluation.
  double flops = 0;                 ///< Analytic work per call at the time size.
  double bytes = 0;                 ///< Analytic traffic per call at the time size.
  std::vector<OutputError> errors;  ///< The largest error of each output over every check.
  double rtol = 0;                  ///< The tolerance the check held the outputs to.
  double atol = 0;
  std::string remarks;           ///< Compiler remarks of the build.
  std::string original_remarks;  ///< The original's, from the same evaluation.
  std::string build_log;         ///< Compiler output when it failed.

  bool correct() const;
  /// A significant win over the original.
  bool faster() const { return status == verdict::kFaster; }
};

CandidateVerdict read_verdict(const Json& evaluation);

/// A verdict as summary.json and `kopt show --json` write it: {id, status, category, reason, ms,
/// baseline_ms, speedup, ci_low, ci_high, p_value, gflops, gbytes_per_s}.
Json verdict_json(const std::string& id, const CandidateVerdict& v);

/// A candidate as summary.json and `kopt show --json` list it: its verdict_json with where it
/// came from and whether it became the best.
Json candidate_json(const std::string& id, const CandidateVerdict& v, const std::string& parent,
                    int iteration, bool accepted, const std::string& summary);

/// The largest error of each output against the tolerance, in one line (empty when unchecked).
std::string errors_text(const CandidateVerdict& verdict);

/// Feedback for the model in a few lines: verdict, reason, speedup with its interval, time,
/// the largest errors against the tolerance.
std::string feedback_text(const CandidateVerdict& verdict);

/// Replaces "seed 12345" with "a seed": evaluation seeds are never shown to the model.
std::string hide_seeds(const std::string& text);

}  // namespace kopt
