// The analyst and the optimizer: their prompts, their tools and their conversations.
#pragma once

#include <string>
#include <vector>

#include "agent/loop/conversation.h"
#include "agent/loop/state.h"
#include "tools/benchmark/benchmark.h"

namespace kopt {

/// How many of the knowledge base's best notes the guided strategy goes through.
inline constexpr size_t kGuidedTechniques = 4;

/// The guided strategy's techniques for one iteration: the notes that best match the benchmark's
/// summary and the current kernel; the first until an iteration applies it correctly (a
/// correct candidate, faster or not), then the next (round robin); and the others' titles.
struct Techniques {
  std::string given;   ///< The note's title and body.
  std::string others;  ///< The other matching notes' titles, or "(none)".
};
Techniques techniques_for(const Benchmark& bench, const LoopState& state, int iteration);

/// Asks the analyst for a diagnosis and a ranked plan for the current best.
Turn run_analyst(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration);

/// The optimizer's conversation for one candidate: a first kernel file for the plan, then,
/// when kopt rejects it, a bounded number of repairs in the same conversation.
class OptimizerSession {
 public:
  OptimizerSession(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration,
                   const std::string& plan);

  /// Asks for a complete kernel file implementing the plan; reminds the model (a bounded
  /// number of times) when it answers without one.
  Turn first();
  /// Shows the model kopt's verdict on its last file and asks for a corrected one.
  Turn repair(const std::string& feedback);
  /// Repairs still allowed.
  int repairs_left() const { return repairs_left_; }

 private:
  Turn until_code(Turn turn);
  /// The kernel file a reply hands in: a whole file, or edits applied to the file the model
  /// last saw. An edit that does not apply leaves nothing handed in and says why in `problem`.
  std::optional<std::string> file_in(const Turn& turn, std::string& problem) const;

  LoopServices& s_;
  std::vector<std::string> tools_;  ///< The optimizer's tools; none outside the marco strategy.
  PromptValues values_;
  Conversation conversation_;
  std::string current_source_;  ///< The file the model's edits apply to.
  int repairs_left_;
};

/// Source with right-aligned line numbers ("  12| ..."), as the model sees kernels.
std::string numbered(const std::string& source);

}  // namespace kopt
