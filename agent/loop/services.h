// What the parts of the loop share during a run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "agent/llm/accounting.h"
#include "agent/loop/config.h"
#include "agent/loop/effects.h"
#include "agent/loop/event_stream.h"
#include "agent/loop/prompts.h"
#include "tools/registry/registry.h"

namespace kopt {

struct LoopServices {
  Effects* effects = nullptr;
  ToolRegistry* registry = nullptr;
  ToolContext* tool_context = nullptr;
  EventStream* events = nullptr;
  llm::UsageLedger* ledger = nullptr;
  const llm::Budget* budget = nullptr;
  const RunConfig* config = nullptr;
  const PromptSet* prompts = nullptr;
  /// The host as both roles' prompts describe it, from the run's record (run.json's
  /// host.description), so a replay elsewhere asks the same; empty in records older than it.
  std::string host;
  /// Receives the current step ("analyst", "optimizer 2/3", "evaluating 0004") for display.
  std::function<void(const std::string&)> progress = [](const std::string&) {};
  int64_t model_calls = 0;  ///< Sequence number of the next model call.
  /// The optimizer's tool results since the last analysis, one compact line each.
  std::vector<std::string> optimizer_results;
  int iteration = 0;                 ///< For display.
  std::string best_id = "original";  ///< For display.
  double best_speedup = 1;           ///< For display.
};

}  // namespace kopt
