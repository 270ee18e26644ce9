// The configuration of a run, as given on the command line and kept in run.json.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "util/json.h"
#include "util/result.h"

namespace kopt {

struct RunConfig {
  std::string benchmark;
  std::string suite;          ///< Folder the benchmark was found in.
  std::string llm = "local";  ///< Backend spec.
  int iterations = 5;
  int candidates = 1;            ///< Optimizer attempts per iteration.
  uint64_t seed = 1;             ///< Seeds model sampling and evaluation seeds.
  double target_speedup = 0;     ///< Stop once the best reaches it (0: no target).
  double roofline_fraction = 0;  ///< Stop once the best reaches this fraction of its bound.
  int64_t budget_tokens = 0;     ///< 0: unlimited.
  double budget_usd = 0;         ///< 0: unlimited.
  int patience = 3;              ///< Stop after this many iterations without a gain.
  double timing_budget = 10;     ///< Seconds per evaluation's timing beyond three rounds.
  bool sandbox = true;
  double temperature = 0.2;
  int max_tokens = 4096;
  int analyst_tool_rounds = 4;    ///< Tool-call rounds the analyst may take.
  int optimizer_tool_rounds = 6;  ///< Tool-call rounds the optimizer may take.
  int no_code_retries = 2;        ///< Reminders for a reply without a kernel file.
  int repair_attempts = 1;        ///< Corrections asked for a candidate kopt rejected.
  /// How the optimizer is asked to hand in a kernel: "file" (the complete file) or "edits"
  /// (SEARCH/REPLACE blocks applied to the file it was shown). Either is accepted in a reply.
  std::string edit_format = "file";
  /// How candidates are asked for: "marco" (the analyst diagnoses with tools, the optimizer
  /// implements its plan with tools), "direct" (one prompt "make this faster", no analyst, no
  /// tools: guess and check) or "guided" (no analyst and no tools; each attempt is given one
  /// technique of the knowledge base, the next in the ranking for this kernel).
  std::string strategy = "marco";
  /// How a significant win over the original becomes the best once there is one: "head-to-head"
  /// (timed against the best in one alternated evaluation, kept when significantly faster than
  /// it) or "interval" (its interval over the original above the best's point estimate, measured
  /// at another moment: the rule of records made before head-to-head promotion).
  std::string promotion = "head-to-head";
  /// Which compiler remarks the analyst is shown: "ranked" (those on the profile's hot lines
  /// first, hottest first, then the rest by line, within a budget that says what it left out)
  /// or "all" (every remark in the compiler's order: records made before ranking).
  std::string remarks = "ranked";
  /// Whether the analyst is offered the `predict` tool (false in records made before it).
  bool predict_tool = true;
  /// Whether the prompts say that each evaluation checks sizes drawn at random beside the
  /// manifest's (false in records made before those were drawn).
  bool drawn_sizes = true;
};

/// The edit format a run uses when none is given: whole files for every backend (the local
/// model ignored the SEARCH/REPLACE format and answers with whole files).
std::string default_edit_format();
/// The strategy a run uses when none is given: guided for the small local model, marco for
/// every other backend.
std::string default_strategy(const std::string& llm_spec);
/// True for "marco", "direct" and "guided".
bool known_strategy(const std::string& name);

Json to_json(const RunConfig& config);
/// Reads run.json's "config"; unknown fields are ignored, wrong types are an Error.
Result<RunConfig> config_from_json(const Json& json);

}  // namespace kopt
