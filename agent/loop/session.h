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

/// Receives a line to show once, apart from the status line: which copy of its benchmark a
/// replayed or resumed run goes on with when the suite's copy has changed.
using NoticeFn = std::function<void(const std::string&)>;

/// The result of a run as the commands report it.
struct RunReport {
  std::filesystem::path dir;
  RunOutcome outcome;
};

/// Starts a new run under `runs_root`; the run's folder keeps a copy of the benchmark's files
/// (benchmark/NAME/, agent/record/benchmark_snapshot.h).
Result<RunReport> start_run(const RunConfig& config, const std::filesystem::path& runs_root,
                            const StatusFn& status, const ModelTextFn& model_text = {});

/// Continues an interrupted run: recorded events are verified, then the loop goes on live (a
/// model call that failed is made again). Refused while another process writes the run. When
/// the suite's copy of the benchmark has changed, the run goes on with its own copy, so that all
/// its candidates are judged alike, and `notice` says so; an older record without a copy is
/// refused then (and gets one when the suite's copy is still the run's).
Result<RunReport> resume_run(const std::filesystem::path& run_dir, const StatusFn& status,
                             const ModelTextFn& model_text = {}, const NoticeFn& notice = {});

/// Re-runs the loop on the recorded model responses and tool results and compares the new
/// event stream with the recorded one (apart from times). An Error means the run could not be
/// loaded; a replay that differs from the record says where in `divergence`. When the suite's
/// copy of the benchmark has changed, the replay uses the run's own copy and `notice` says so.
struct ReplayReport {
  size_t events = 0;
  RunOutcome outcome;
  std::string divergence;  ///< Empty when every event was reproduced.
};
Result<ReplayReport> replay_run(const std::filesystem::path& run_dir, const StatusFn& status,
                                const NoticeFn& notice = {});

}  // namespace kopt
