#include "agent/loop/orchestrator.h"

#include <utility>

#include <fmt/format.h>

#include "agent/loop/remarks.h"
#include "agent/loop/roles.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/strings.h"

namespace kopt {

namespace {

// Records why the run stops; returns false so that callers can `return stop_with(...)`.
bool stop_with(RunOutcome& outcome, const std::string& rule, const std::string& reason) {
  outcome.rule = rule;
  outcome.reason = reason;
  return false;
}

// Whether a correct candidate can become the best at all: a significant win over the original
// that is not the best itself. Empty when it can; otherwise why not.
std::string cannot_promote(const LoopState& state, const Attempt& attempt,
                           const std::string& source) {
  if (source == state.best_source) return "identical to " + state.best_id;
  if (!attempt.verdict.faster())
    return attempt.verdict.status + ": not a significant win over the original";
  return {};
}

// The "interval" rule: the whole interval over the original lies above the best's speedup, so
// that noise alone cannot promote a copy of the best.
std::string decide_by_interval(const LoopState& state, Attempt& attempt) {
  const CandidateVerdict& v = attempt.verdict;
  attempt.accepted = state.best_id == "original" || v.ci_low > state.best.speedup;
  if (!attempt.accepted)
    return fmt::format("its interval [{:.2f}, {:.2f}] does not clear {}'s {:.2f}x", v.ci_low,
                       v.ci_high, state.best_id, state.best.speedup);
  return "a significant win" +
         (state.best_id == "original" ? std::string() : ", clearly faster than " + state.best_id);
}

// The "head-to-head" rule: timed against the best in one alternated evaluation, where the
// moment's noise hits both alike; kept when significantly faster than the best.
std::string decide_head_to_head(const LoopState& state, Attempt& attempt,
                                const CandidateVerdict& versus_best) {
  attempt.accepted = versus_best.faster();
  const std::string measured =
      fmt::format("{:.2f}x [{:.2f}, {:.2f}] against {} timed head to head", versus_best.speedup,
                  versus_best.ci_low, versus_best.ci_high, state.best_id);
  if (attempt.accepted) return "a significant win, faster than the best: " + measured;
  if (!versus_best.correct())
    return "the head-to-head against " + state.best_id + " failed: " + versus_best.status + ": " +
           versus_best.reason;
  return "not significantly faster than the best: " + measured;
}

// The fraction of its roofline bound the classified kernel reaches (1 / headroom); 0 when the
// roofline tool failed or could not time it.
double roof_fraction(const ToolResult& result) {
  if (!result.ok || !result.data.is_object()) return 0;
  const Json point = result.data.value("point", Json::object());
  const double headroom = point.is_object() ? point.value("headroom", 0.0) : 0.0;
  return headroom >= 1 ? 1 / headroom : 0;
}

}  // namespace

Orchestrator::Orchestrator(const Benchmark& bench, LoopServices& services, const RunRecord* record)
    : bench_(bench), s_(services), record_(record) {}

Status Orchestrator::start(LoopState& state) {
  auto original = original_source(bench_);
  if (!original) return original.error();
  state.original_source = state.best_source = *original;
  state.best.status = "original";
  state.best.speedup = 1;
  if (auto st = s_.events->emit({{"type", "run_started"},
                                 {"benchmark", bench_.name},
                                 {"benchmark_hash", bench_.hash},
                                 {"config", to_json(*s_.config)}});
      !st)
    return st;
  return evaluate_reference(state);
}

// The human version against the original, or without one the original against itself: the
// latter tells a driver that cannot reproduce its own original (an in-place buffer registered
// as an output, a kernel that is not deterministic) before any model call is spent on it.
Status Orchestrator::evaluate_reference(LoopState& state) {
  const std::string label = bench_.has_human ? "human" : "original";
  auto source = bench_.has_human ? read_file(bench_.human_path()) : original_source(bench_);
  if (!source) return source.error();
  s_.progress(bench_.has_human ? "timing the human version"
                               : "checking and timing the original against itself");
  Json evaluation = s_.effects->evaluate(label, *source, true);
  state.reference = read_verdict(evaluation);
  if (bench_.has_human) state.human = state.reference;
  if (auto st = s_.events->emit(
          {{"type", "evaluation"}, {"candidate", label}, {"evaluation", evaluation}});
      !st)
    return st;
  if (!bench_.has_human && !state.reference.correct())
    return fail("the original of " + bench_.name + " fails against itself (" +
                state.reference.status + ": " + state.reference.reason +
                "); an array the kernel updates in place must be registered with inout(), not "
                "output(), and the kernel must give the same result on the same inputs");
  return {};
}

// Profiles and classifies the best kernel when it changed, through the registered tools.
Status Orchestrator::refresh_evidence(LoopState& state, int iteration) {
  if (state.evidence_for == state.best_id) return {};
  // Only the analyst reads the evidence; without one it serves the roofline stopping rule alone.
  if (s_.config->strategy != "marco" && s_.config->roofline_fraction <= 0) return {};
  state.evidence_for = state.best_id;
  s_.tool_context->current_source = state.best_source;
  if (bench_.is_program()) {
    state.profile = state.roofline = kNoProgramEvidence;
    return {};
  }
  for (const char* name : {"profile", "roofline"}) {
    if (!s_.registry->find(name)) continue;
    s_.progress(std::string("kopt: ") + name);
    const Json arguments = {{"variant", "current"}};
    ToolResult result = s_.effects->tool("kopt", name, arguments, *s_.tool_context);
    (std::string(name) == "profile" ? state.profile : state.roofline) = result.text;
    if (std::string(name) == "profile") state.hot_lines = hot_lines(result.data);
    if (std::string(name) == "roofline") state.roof_fraction = roof_fraction(result);
    if (auto st = s_.events->emit(tool_call_event("kopt", iteration, name, arguments, result)); !st)
      return st;
  }
  return {};
}

Status Orchestrator::evaluate_candidate(LoopState& state, Attempt attempt,
                                        const std::string& source,
                                        const std::string& parent_source) {
  s_.progress("evaluating " + attempt.id);
  if (auto st = s_.events->emit({{"type", "candidate"},
                                 {"id", attempt.id},
                                 {"parent", attempt.parent},
                                 {"iteration", attempt.iteration},
                                 {"summary", attempt.summary},
                                 {"source_hash", hash_hex(source)},
                                 {"source", source}});
      !st)
    return st;
  Json evaluation = s_.effects->evaluate(attempt.id, source, true);
  if (auto st = s_.events->emit(
          {{"type", "evaluation"}, {"candidate", attempt.id}, {"evaluation", evaluation}});
      !st)
    return st;
  attempt.verdict = read_verdict(evaluation);
  if (attempt.verdict.correct()) s_.tool_context->candidates[attempt.id] = source;
  auto decided = decide(state, attempt, source);
  if (!decided) return decided.error();
  const std::string why = *decided;
  attempt.decision = why;
  if (auto st = s_.events->emit({{"type", "decision"},
                                 {"candidate", attempt.id},
                                 {"accepted", attempt.accepted},
                                 {"best", attempt.accepted ? attempt.id : state.best_id},
                                 {"reason", why}});
      !st)
    return st;
  if (record_) {
    CandidateFiles files{
        attempt.id,
        attempt.parent,
        bench_.is_program() ? "program.files" : "kernel" + bench_.source_extension(),
        source,
        parent_source,
        evaluation.value("build", Json::object()).value("log", ""),
        evaluation,
        {{"iteration", attempt.iteration},
         {"parent", attempt.parent},
         {"summary", attempt.summary},
         {"accepted", attempt.accepted}}};
    if (auto st = record_->write_candidate(files); !st) return st;
  }
  if (attempt.accepted) {
    state.best_id = s_.best_id = attempt.id;
    state.best_source = source;
    state.best = attempt.verdict;
    s_.best_speedup = attempt.verdict.speedup;
  }
  state.attempts.push_back(std::move(attempt));
  return {};
}

// A candidate handed in by one optimizer session, waiting for its evaluation.
struct Pending {
  Attempt attempt;
  std::string source;
  size_t session;
  std::string parent_source;  ///< For its diff; the best may change while it waits.
};

// Whether the evaluated candidate becomes the best, and why, by the run's promotion rule.
Result<std::string> Orchestrator::decide(const LoopState& state, Attempt& attempt,
                                         const std::string& source) {
  attempt.accepted = false;
  if (std::string no = cannot_promote(state, attempt, source); !no.empty()) return no;
  if (state.best_id == "original" || s_.config->promotion == "interval")
    return decide_by_interval(state, attempt);
  auto evaluation = head_to_head(attempt.id, source, state.best_id, state.best_source);
  if (!evaluation) return evaluation.error();
  return decide_head_to_head(state, attempt, read_verdict(*evaluation));
}

// `id` timed against `baseline` in one alternated evaluation, recorded as a head_to_head event;
// null, and not recorded, when replaying a record made before such comparisons.
Result<Json> Orchestrator::head_to_head(const std::string& id, const std::string& source,
                                        const std::string& baseline,
                                        const std::string& baseline_source) {
  s_.progress("timing " + id + " against " +
              (baseline == "human" ? std::string("the human version") : baseline));
  Json evaluation = s_.effects->compare(id, source, baseline, baseline_source);
  if (evaluation.is_null()) return evaluation;
  if (auto st = s_.events->emit({{"type", "head_to_head"},
                                 {"candidate", id},
                                 {"baseline", baseline},
                                 {"evaluation", evaluation}});
      !st)
    return st.error();
  return evaluation;
}

Status Orchestrator::no_candidate(LoopState& state, Attempt attempt) {
  attempt.verdict.status = "no-candidate";
  attempt.verdict.reason = "the optimizer handed in no kernel file";
  if (auto st = s_.events->emit({{"type", "no_candidate"},
                                 {"id", attempt.id},
                                 {"iteration", attempt.iteration},
                                 {"reason", attempt.verdict.reason}});
      !st)
    return st;
  state.attempts.push_back(std::move(attempt));
  return {};
}

Result<bool> Orchestrator::iterate(LoopState& state, int iteration, RunOutcome& outcome) {
  s_.iteration = iteration;
  if (auto st = s_.events->emit(
          {{"type", "iteration"}, {"iteration", iteration}, {"best", state.best_id}});
      !st)
    return st.error();
  if (auto st = refresh_evidence(state, iteration); !st) return st.error();
  const double roof = s_.config->roofline_fraction;
  if (roof > 0 && state.roof_fraction >= roof)
    return !stop_with(outcome, "roofline",
                      fmt::format("{} runs at {:.0f}% of its roofline bound, the limit is {:.0f}%",
                                  state.best_id, 100 * state.roof_fraction, 100 * roof));
  state.optimizer_results = std::exchange(s_.optimizer_results, {});
  // Only the marco strategy has an analyst; the others ask the optimizer directly.
  Turn analysis;
  if (s_.config->strategy == "marco") analysis = run_analyst(s_, bench_, state, iteration);
  if (analysis.stop) return stop_with(outcome, analysis.stop_rule, analysis.stop->message);
  std::vector<std::unique_ptr<OptimizerSession>> sessions;
  std::vector<Pending> queue;
  for (int k = 0; k < s_.config->candidates; ++k) {
    sessions.push_back(
        std::make_unique<OptimizerSession>(s_, bench_, state, iteration, analysis.text));
    Turn turn = sessions.back()->first();
    if (turn.stop) return stop_with(outcome, turn.stop_rule, turn.stop->message);
    Attempt attempt{candidate_id(state.next_candidate++),
                    state.best_id,
                    iteration,
                    trim(turn.summary),
                    {},
                    false,
                    {}};
    if (!turn.submitted) {
      if (auto st = no_candidate(state, attempt); !st) return st.error();
      continue;
    }
    queue.push_back({attempt, *turn.submitted, sessions.size() - 1, state.best_source});
  }
  std::vector<std::string> sources;
  for (const auto& p : queue) sources.push_back(p.source);
  s_.effects->prebuild(sources);
  const std::string best_before = state.best_id;
  for (size_t i = 0; i < queue.size(); ++i) {
    Pending pending = queue[i];
    const std::string parent = pending.attempt.parent;
    if (auto st = evaluate_candidate(state, pending.attempt, pending.source, pending.parent_source);
        !st)
      return st.error();
    const CandidateVerdict& verdict = state.attempts.back().verdict;
    OptimizerSession& session = *sessions[pending.session];
    const bool repairable = verdict.status == kopt::verdict::kBuildFailed ||
                            verdict.status == kopt::verdict::kIncorrect;
    if (!repairable || session.repairs_left() <= 0) continue;
    Turn turn = session.repair(feedback_text(verdict));
    if (turn.stop) return stop_with(outcome, turn.stop_rule, turn.stop->message);
    Attempt retry{
        candidate_id(state.next_candidate++),
        parent,
        iteration,
        "repair of " + pending.attempt.id + (turn.summary.empty() ? "" : ": " + trim(turn.summary)),
        {},
        false,
        {}};
    if (!turn.submitted) {
      if (auto st = no_candidate(state, retry); !st) return st.error();
      continue;
    }
    queue.push_back({retry, *turn.submitted, pending.session, pending.parent_source});
  }
  state.since_gain = state.best_id == best_before ? state.since_gain + 1 : 0;
  return !stop_rule(state, iteration, outcome);
}

bool Orchestrator::stop_rule(const LoopState& state, int iteration, RunOutcome& outcome) const {
  const RunConfig& c = *s_.config;
  if (c.target_speedup > 0 && state.best.speedup >= c.target_speedup)
    return !stop_with(outcome, "target",
                      fmt::format("reached {:.2f}x, the target is {:.2f}x", state.best.speedup,
                                  c.target_speedup));
  if (auto within = s_.budget->check(*s_.ledger); !within)
    return !stop_with(outcome, "budget", within.error().message);
  if (state.since_gain >= c.patience)
    return !stop_with(outcome, "stagnation",
                      fmt::format("{} iterations without a significant gain", state.since_gain));
  if (iteration >= c.iterations)
    return !stop_with(outcome, "iterations", fmt::format("{} iterations done", iteration));
  return false;
}

// The final best against the human version in one alternated evaluation, rather than a ratio
// of two speedups measured minutes apart.
Status Orchestrator::compare_with_human(LoopState& state) {
  if (state.best_id == "original" || !bench_.has_human) return {};
  auto human = read_file(bench_.human_path());
  if (!human) return human.error();
  auto evaluation = head_to_head(state.best_id, state.best_source, "human", *human);
  if (!evaluation) return evaluation.error();
  if (!evaluation->is_null()) state.versus_human = read_verdict(*evaluation);
  return {};
}

Result<RunOutcome> Orchestrator::run() {
  RunOutcome outcome;
  LoopState& state = outcome.state;
  if (auto st = start(state); !st) return st.error();
  for (int iteration = 1; outcome.rule.empty(); ++iteration) {
    auto more = iterate(state, iteration, outcome);
    if (!more) return more.error();
    if (!*more) break;
  }
  if (outcome.rule == "error") return fail(outcome.reason);
  if (outcome.interrupted()) {  // No stop event: a resume makes the failed call again.
    outcome.summary = make_summary(bench_, outcome, *s_.ledger);
    return outcome;
  }
  if (auto st = s_.events->emit({{"type", "stop"},
                                 {"rule", outcome.rule},
                                 {"reason", outcome.reason},
                                 {"best", state.best_id}});
      !st)
    return st.error();
  if (auto st = compare_with_human(state); !st) return st.error();
  outcome.summary = make_summary(bench_, outcome, *s_.ledger);
  return outcome;
}

}  // namespace kopt
