// A finished or running run as the inspection commands and the HTML report see it, read
// from its record: run.json, events.jsonl, summary.json and the candidate folders.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "agent/loop/verdict.h"
#include "agent/record/run_record.h"

namespace kopt {

/// One candidate with what was measured and decided about it.
struct CandidateView {
  std::string id;
  std::string parent;
  int iteration = 0;
  std::string summary;
  bool accepted = false;
  bool evaluated = false;
  CandidateVerdict verdict;
  std::string decision;  ///< Why it was promoted or refused (the decision event's reason).
  std::vector<double> baseline_samples_ms;  ///< Every per-call time of its evaluation, per side.
  std::vector<double> candidate_samples_ms;
  std::string source;
  std::string diff;
};

/// One iteration: the analyst's reasoning and the tokens spent.
struct IterationView {
  int number = 0;
  std::string best_before;
  std::string analysis;  ///< The analyst's final answer.
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  bool tokens_estimated =
      false;             ///< Some calls reported no usage: counted at 4 characters a token.
  std::string roofline;  ///< The roofline tool's text for the best, when it ran.
  std::string profile;   ///< The profile tool's text for the best, when it ran.
};

/// A candidate timed head to head against another version in one alternated evaluation: a
/// promotion decision against the best, or the final best against the human version.
struct ComparisonView {
  std::string candidate;
  std::string baseline;  ///< "human", or the id of the best it was compared with.
  int iteration = 0;
  CandidateVerdict verdict;
  std::vector<double> baseline_samples_ms;  ///< Every per-call time, per side.
  std::vector<double> candidate_samples_ms;
};

/// What the loop's profile tool found for one version (the best, when an iteration began).
struct ProfileView {
  std::string text;  ///< The summary the analyst read: a header line, then the hottest lines.
  Json data;         ///< The tool's kopt-profile/1 document; null when the tool failed.
};

struct RunView {
  std::filesystem::path dir;
  Json info;
  std::string status;  ///< RunRecord::status(): "stopped" for a run whose writer is gone.
  Json summary;
  CandidateVerdict human;  ///< Status "" when the benchmark has no human version.
  /// Every per-call time of the human version's evaluation against the original, per side.
  std::vector<double> human_baseline_samples_ms, human_samples_ms;
  /// The run's first evaluation (the human version's, or the original's against itself): its
  /// original_* figures and work describe the original.
  CandidateVerdict reference;
  std::vector<CandidateView> candidates;
  std::vector<IterationView> iterations;
  std::vector<ComparisonView> comparisons;
  std::map<std::string, ProfileView> profiles;  ///< By version profiled: "original" or an id.
  std::string stop_rule, stop_reason;
  Json peaks;  ///< The machine the run's roofline tool drew on (its first answer); null if none.
  std::string precision = "fp64";  ///< The kind of FLOP that answer was limited by.
  bool torn = false;  ///< The event log ended in a torn line (the run was killed mid-write).
};

/// Where and how the run was made, as labelled fields in a fixed order (host, cpu, compiler,
/// flags, kopt, started, model, load): the header of `kopt show` and of the report. A field
/// the record lacks (a run recorded before it was kept) is left out.
std::vector<std::pair<std::string, std::string>> provenance(const RunView& view);

/// Why a candidate ended where it did, in one line: the check's or build's reason when it is not
/// correct, else the decision's after "promoted: " or "refused: " (a faster candidate may be
/// refused, as identical to the best); empty when nothing was decided.
std::string outcome_reason(const CandidateView& candidate);

/// The id of the run's best: the last candidate promoted, or "original".
std::string best_id(const RunView& view);

/// The text of the run's benchmark file `which` ("original" or "human", .cpp or .cu).
Result<std::string> benchmark_source(const RunView& view, const std::string& which);

/// Reads a run folder.
Result<RunView> load_run_view(const std::filesystem::path& dir);

/// A candidate by id, or null.
const CandidateView* find_candidate(const RunView& view, const std::string& id);

}  // namespace kopt
