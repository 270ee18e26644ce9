// The loop: each iteration the analyst diagnoses the best kernel so far, the optimizer writes
// candidates, kopt evaluates them, and the best correct, significantly faster candidate is
// kept. It stops on the iteration limit, a target speedup, a fraction of the roofline bound, the
// budget, or stagnation. Given the same results from Effects, it makes the same decisions and emits
// the same events.
#pragma once

#include <string>

#include "agent/loop/services.h"
#include "agent/loop/state.h"
#include "agent/record/run_record.h"
#include "tools/benchmark/benchmark.h"

namespace kopt {

/// How a run ended.
struct RunOutcome {
  /// A stopping rule ("iterations", "target", "budget", "stagnation", "roofline"), or why the
  /// run could not go on: "interrupted" (the model failed after its retries) or "failed" (the
  /// model refused for good: a bad key, an unknown model). Both can be resumed.
  std::string rule;
  std::string reason;  ///< One line.
  LoopState state;
  Json summary;

  /// True when the model's failure ended the run before a stopping rule did.
  bool interrupted() const { return rule == "interrupted" || rule == "failed"; }
};

class Orchestrator {
 public:
  /// `record` receives candidate folders and may be null (replay writes nothing).
  Orchestrator(const Benchmark& bench, LoopServices& services, const RunRecord* record);

  /// Runs the loop to a stopping rule or a model failure (no `stop` event then). An Error means
  /// the run could not go on (a replay that diverged, an event that could not be written).
  Result<RunOutcome> run();

 private:
  Status start(LoopState& state);
  Status refresh_evidence(LoopState& state, int iteration);
  Result<bool> iterate(LoopState& state, int iteration, RunOutcome& outcome);
  Status evaluate_candidate(LoopState& state, Attempt attempt, const std::string& source,
                            const std::string& parent_source);
  Status no_candidate(LoopState& state, Attempt attempt);
  bool stop_rule(const LoopState& state, int iteration, RunOutcome& outcome) const;
  Status evaluate_reference(LoopState& state);
  Result<std::string> decide(const LoopState& state, Attempt& attempt, const std::string& source);
  Result<Json> head_to_head(const std::string& id, const std::string& source,
                            const std::string& baseline, const std::string& baseline_source);
  Status compare_with_human(LoopState& state);

  const Benchmark& bench_;
  LoopServices& s_;
  const RunRecord* record_;
};

/// The summary.json document of a finished (or stopped) run.
Json make_summary(const Benchmark& bench, const RunOutcome& outcome,
                  const llm::UsageLedger& ledger);

}  // namespace kopt
