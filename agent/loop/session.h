// Assembling and running a whole run: the benchmark, the model backend, the tools, the
// evaluator, the run record and its event stream. `kopt run`, `kopt resume`, `kopt replay` and
// `kopt campaign` all go through here.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "agent/loop/config.h"
#include "agent/loop/orchestrator.h"

namespace kopt {

/// Receives the status line to show ("iteration 2/5 · optimizer: compile · 12.3k tokens ·
/// best 1.84x").
using StatusFn = std::function<void(const std::string&)>;

/// Receives a model's answer as it is written: an empty `delta` when an answer of `role`
/// ("analyst", "optimizer") starts, then its text piece by piece, then an empty role and delta
/// when it has ended. Given, live model calls are streamed; nothing of it changes what the
/// model is asked or what the run records.
using ModelTextFn = std::function<void(const std::string& role, std::string_view delta)>;

/// The result of a run as the commands report it.
struct RunReport {
  std::filesystem::path dir;
  RunOutcome outcome;
};

/// Starts a new run under `runs_root`.
Result<RunReport> start_run(const RunConfig& config, const std::filesystem::path& runs_root,
                            const StatusFn& status, const ModelTextFn& model_text = {});

/// Continues an interrupted run: recorded events are verified, then the loop goes on live (a
/// model call that failed is made again). Refused while another process writes the run.
Result<RunReport> resume_run(const std::filesystem::path& run_dir, const StatusFn& status,
                             const ModelTextFn& model_text = {});

/// Re-runs the loop on the recorded model responses and tool results and compares the new
/// event stream with the recorded one (apart from times). An Error means the run could not be
/// loaded; a replay that differs from the record says where in `divergence`.
struct ReplayReport {
  size_t events = 0;
  RunOutcome outcome;
  std::string divergence;  ///< Empty when every event was reproduced.
};
Result<ReplayReport> replay_run(const std::filesystem::path& run_dir, const StatusFn& status);

}  // namespace kopt
