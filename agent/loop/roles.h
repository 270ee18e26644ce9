// The analyst and the optimizer: their prompts, their tools and their conversations.
#pragma once

#include <string>

#include "agent/loop/conversation.h"
#include "agent/loop/state.h"
#include "tools/benchmark/benchmark.h"

namespace kopt {

/// Asks the analyst for a diagnosis and a ranked plan for the current best.
Turn run_analyst(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration);

/// Asks the optimizer for a complete kernel file implementing `plan`; reminds it (a bounded
/// number of times) when it answers without one.
Turn run_optimizer(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration,
                   const std::string& plan);

/// Source with right-aligned line numbers ("  12| ..."), as the model sees kernels.
std::string numbered(const std::string& source);

}  // namespace kopt
