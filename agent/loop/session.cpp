#include "agent/loop/session.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <thread>

#include <fmt/format.h>

#include "agent/llm/backend_factory.h"
#include "agent/loop/loop_tools.h"
#include "agent/record/benchmark_snapshot.h"
#include "agent/record/events.h"
#include "sandbox/sandbox.h"
#include "tools/eval/evaluator.h"
#include "tools/eval/toolchain.h"
#include "tools/machine/host.h"
#include "util/interrupt_notice.h"
#include "util/paths.h"
#include "util/version.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// Everything a run needs besides its record and events.
struct Assembly {
  RunConfig config;
  Benchmark bench;
  std::unique_ptr<llm::LlmBackend> backend;
  std::unique_ptr<ProcessRunner> runner = std::make_unique<LocalProcessRunner>();
  std::unique_ptr<LocalEvaluator> evaluator;
  std::unique_ptr<ToolRegistry> registry = make_loop_registry();
  PromptSet prompts;
  llm::UsageLedger ledger;
  llm::Budget budget;
  ToolContext tool_context;
  /// A recorded run reopened with its own copy of the benchmark: why (else empty).
  std::string why_recorded_copy;
};

Result<Benchmark> benchmark_for(const RunConfig& config) {
  return find_benchmark(config.benchmark,
                        config.suite.empty() ? default_suite() : fs::path(config.suite));
}

// Builds the parts around `bench`; `live` adds the model backend and the evaluator.
Result<std::unique_ptr<Assembly>> assemble(const RunConfig& config, Benchmark bench, bool live) {
  auto a = std::make_unique<Assembly>();
  a->config = config;
  a->bench = std::move(bench);
  auto prompts = PromptSet::load(kopt_home() / "prompts");
  if (!prompts) return prompts.error();
  a->prompts = std::move(*prompts);
  auto prices = llm::PriceTable::load_default();
  a->ledger = llm::UsageLedger(prices ? *prices : llm::PriceTable());
  a->budget = llm::Budget({config.budget_tokens, config.budget_usd, 0});
  a->tool_context.benchmark = &a->bench;
  if (!live) return a;
  auto backend = llm::make_backend(config.llm);
  if (!backend) return backend.error();
  a->backend = std::move(*backend);
  if (config.sandbox)
    if (auto usable = probe_sandbox(); !usable)
      return fail(usable.error().message +
                  "; kopt does not run candidate code unconfined unless you pass --no-sandbox");
  a->evaluator = std::make_unique<LocalEvaluator>(default_context(*a->runner, config.sandbox));
  a->tool_context.executor = a->evaluator.get();
  if (auto ready = a->backend->prepare(); !ready)
    return fail("model backend " + config.llm + ": " + ready.error().message);
  return a;
}

Json host_fingerprint() {
  utsname u{};
  uname(&u);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const HostInfo info = read_host_info();
  return {{"hostname", host},
          {"kernel", std::string(u.sysname) + " " + u.release},
          {"machine", u.machine},
          {"cpu_model", info.cpu_model},
          {"description", host_text(info)},
          {"cores", info.cores},
          {"hardware_threads", std::thread::hardware_concurrency()},
          {"load_at_start", load_averages()}};
}

Json run_info(const Assembly& a) {
  auto toolchain = find_toolchain(a.bench.language, *a.runner);
  return {{"config", to_json(a.config)},
          {"benchmark",
           {{"name", a.bench.name},
            {"hash", a.bench.hash},
            {"dir", a.bench.dir.string()},
            {"flags", a.bench.flags}}},
          {"toolchain", toolchain ? toolchain->fingerprint : toolchain.error().message},
          {"host", host_fingerprint()},
          {"prompts", a.prompts.hashes()},
          {"sandbox", a.config.sandbox ? "bubblewrap" : "none (--no-sandbox)"},
          {"kopt_version", kKoptVersion},
          {"kopt_commit", kKoptCommit},
          {"created", now_iso8601()},
          {"status", "running"}};
}

LoopServices services_for(Assembly& a, Effects& effects, EventStream& stream, const Json& info) {
  LoopServices s;
  s.host = json_text(json_member(info, "host"), "description");
  s.effects = &effects;
  s.registry = a.registry.get();
  s.tool_context = &a.tool_context;
  s.events = &stream;
  s.ledger = &a.ledger;
  s.budget = &a.budget;
  s.config = &a.config;
  s.prompts = &a.prompts;
  return s;
}

// Wires the status line to the services after they have their final address.
void show_progress(LoopServices& s, const StatusFn& status) {
  s.progress = [&s, status](const std::string& step) {
    if (!status) return;
    const double tokens = static_cast<double>(s.ledger->total().total());
    std::string rate;  // How fast the model wrote its last answer.
    if (const auto& calls = s.ledger->calls(); !calls.empty() && calls.back().latency_seconds > 0)
      rate = fmt::format(" (last answer {:.0f} tok/s)",
                         calls.back().usage.output_tokens / calls.back().latency_seconds);
    status(fmt::format("iteration {}/{} · {} · {:.1f}k tokens{} · best {} {:.2f}x", s.iteration,
                       s.config->iterations, step, tokens / 1000, rate, s.best_id, s.best_speedup));
  };
}

// Runs the loop; a recorded event of an unexpected shape (a field of the wrong type, met while
// replaying or resuming) is an Error that says so, not an exception.
Result<RunOutcome> run_loop(Orchestrator& orchestrator, const fs::path& events) {
  try {
    return orchestrator.run();
  } catch (const Json::exception& error) {
    return fail(events.string() + " holds an event of an unexpected shape (" +
                json_error_text(error.what()) + ")");
  }
}

Result<RunReport> drive(Assembly& a, RunRecord& record, Effects& effects, EventStream& stream,
                        const StatusFn& status) {
  const InterruptNotice notice("kopt: stopped; the record keeps everything so far: kopt resume " +
                               record.dir().filename().string() + " continues the run");
  LoopServices services = services_for(a, effects, stream, record.info());
  show_progress(services, status);
  Orchestrator orchestrator(a.bench, services, &record);
  auto outcome = run_loop(orchestrator, record.events_path());
  if (!outcome) {
    (void)record.set_status("failed", outcome.error().message);
    return outcome.error();
  }
  Json summary = outcome->summary;  // What the loop decided, and how busy the machine was.
  summary["finished"] = now_iso8601();
  summary["load_at_end"] = load_averages();
  if (auto st = record.write_summary(summary); !st) return st.error();
  const bool ended = !outcome->interrupted();
  if (auto st = record.set_status(ended ? "finished" : outcome->rule,
                                  ended ? outcome->rule + ": " + outcome->reason : outcome->reason);
      !st)
    return st.error();
  return RunReport{record.dir(), std::move(*outcome)};
}

// A recorded run's parts, with the benchmark it was made with: the suite's copy, or where that
// has changed the run's own (why_recorded_copy then says why).
Result<std::unique_ptr<Assembly>> reopen(const RunRecord& record, bool live) {
  auto config = config_from_json(record.info().value("config", Json()));
  if (!config) return config.error();
  const Json& recorded = json_member(record.info(), "benchmark");
  auto bench = recorded_benchmark(record.dir(), json_text(recorded, "name", config->benchmark),
                                  json_text(recorded, "hash"), benchmark_for(*config));
  if (!bench) return bench.error();
  auto a = assemble(*config, std::move(bench->bench), live);
  if (a) (*a)->why_recorded_copy = bench->why_recorded_copy;
  return a;
}

}  // namespace

Result<RunReport> start_run(const RunConfig& config, const fs::path& runs_root,
                            const StatusFn& status, const ModelTextFn& model_text) {
  auto bench = benchmark_for(config);
  if (!bench) return bench.error();
  auto a = assemble(config, std::move(*bench), true);
  if (!a) return a.error();
  auto record = RunRecord::create(runs_root, (*a)->bench.name, run_info(**a));
  if (!record) return record.error();
  if (auto st = write_benchmark_snapshot((*a)->bench, record->dir()); !st) {
    (void)record->set_status("failed", st.error().message);
    return st.error();
  }
  auto log = EventLog::create(record->events_path());
  if (!log) return log.error();
  EventStream stream(StreamMode::record, &*log);
  LiveEffects effects(*(*a)->backend, *(*a)->registry, *(*a)->evaluator, (*a)->bench,
                      config.timing_budget);
  effects.stream_text_to(model_text);
  return drive(**a, *record, effects, stream, status);
}

Result<RunReport> resume_run(const fs::path& run_dir, const StatusFn& status,
                             const ModelTextFn& model_text, const NoticeFn& notice) {
  auto record = RunRecord::open(run_dir);
  if (!record) return record.error();
  if (auto st = record->lock_for_writing("kopt resume"); !st) return st.error();
  if (record->info().value("status", "") == "finished")
    return fail("run " + run_dir.filename().string() + " has finished; start a new run instead");
  auto a = reopen(*record, true);
  if (!a) return a.error();
  if (!(*a)->why_recorded_copy.empty() && notice)
    notice((*a)->why_recorded_copy + "; the run goes on with its recorded copy (" +
           (*a)->bench.dir.string() +
           ") so that all its candidates are judged alike; a new run uses the suite's");
  if (!has_benchmark_snapshot(run_dir, (*a)->bench.name))  // A record older than the copies.
    if (auto st = write_benchmark_snapshot((*a)->bench, run_dir); !st) return st.error();
  auto recorded = read_events(record->events_path());
  if (!recorded) return recorded.error();
  auto log = EventLog::open_for_append(record->events_path());
  if (!log) return log.error();
  auto resumed = resume_point(*log, *recorded);
  if (!resumed) return resumed.error();
  const std::vector<Json> events = std::move(*resumed);
  EventStream stream(StreamMode::resume, &*log, events);
  LiveEffects live(*(*a)->backend, *(*a)->registry, *(*a)->evaluator, (*a)->bench,
                   (*a)->config.timing_budget);
  live.stream_text_to(model_text);
  RecordedEffects effects(events, &live);
  (void)record->set_status("running", "resumed");
  return drive(**a, *record, effects, stream, status);
}

Result<ReplayReport> replay_run(const fs::path& run_dir, const StatusFn& status,
                                const NoticeFn& notice) {
  auto record = RunRecord::open(run_dir);
  if (!record) return record.error();
  auto a = reopen(*record, false);
  if (!a) return a.error();
  if (!(*a)->why_recorded_copy.empty() && notice)
    notice((*a)->why_recorded_copy + "; the replay uses the run's recorded copy (" +
           (*a)->bench.dir.string() + ")");
  auto recorded = read_events(record->events_path());
  if (!recorded) return recorded.error();
  const std::vector<Json> events = without_retried_calls(*recorded);
  EventStream stream(StreamMode::replay, nullptr, events);
  RecordedEffects effects(events, nullptr);
  LoopServices services = services_for(**a, effects, stream, record->info());
  show_progress(services, status);
  Orchestrator orchestrator((*a)->bench, services, nullptr);
  auto outcome = run_loop(orchestrator, record->events_path());
  ReplayReport report{stream.count(), {}, {}};  // Counted once the loop has run.
  if (!outcome) {
    report.divergence = effects.divergence().empty()
                            ? outcome.error().message
                            : outcome.error().message + " (" + effects.divergence() + ")";
    return report;
  }
  report.outcome = std::move(*outcome);
  if (!effects.divergence().empty()) report.divergence = effects.divergence();
  if (!stream.recording_exhausted())
    report.divergence = fmt::format("the replay stopped after {} events; the record has {}",
                                    stream.count(), events.size());
  return report;
}

}  // namespace kopt
