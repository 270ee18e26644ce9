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
};

struct RunView {
  std::filesystem::path dir;
  Json info;
  std::string status;  ///< RunRecord::status(): "stopped" for a run whose writer is gone.
  Json summary;
  CandidateVerdict human;  ///< Status "" when the benchmark has no human version.
  /// The run's first evaluation (the human version's, or the original's against itself): its
  /// original_* figures and work describe the original.
  CandidateVerdict reference;
  std::vector<CandidateView> candidates;
  std::vector<IterationView> iterations;
  std::string stop_rule, stop_reason;
  Json peaks;  ///< The machine the run's roofline tool drew on (its first answer); null if none.
  std::string precision = "fp64";  ///< The kind of FLOP that answer was limited by.
  bool torn = false;  ///< The event log ended in a torn line (the run was killed mid-write).
};

/// Reads a run folder.
Result<RunView> load_run_view(const std::filesystem::path& dir);

/// A candidate by id, or null.
const CandidateView* find_candidate(const RunView& view, const std::string& id);

}  // namespace kopt
