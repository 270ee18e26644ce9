#include "tools/eval/program_eval.h"

#include <chrono>
#include <cmath>

#include "tools/eval/program_run.h"
#include "util/entropy.h"
#include "util/strings.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

using Clock = std::chrono::steady_clock;

// The program's sides after their builds; the baseline is the original unless one was given.
struct Programs {
  std::unique_ptr<ProgramSide> original, candidate, baseline;
  ProgramSide& timing_baseline() { return baseline ? *baseline : *original; }
};

// Stages and builds one side from a bundle (null: the original's own files).
BuildOutcome build_side(const Benchmark& bench, const std::string* source, ProgramSide& side) {
  BuildOutcome outcome;
  std::map<std::string, std::string> files;
  if (source) {
    auto parsed = parse_bundle(*source, bench.program.editable);
    if (!parsed) {
      outcome.failure = parsed.error().message;
      return outcome;
    }
    files = std::move(*parsed);
  }
  if (auto st = side.stage(files); !st) {
    outcome.failure = st.error().message;
    return outcome;
  }
  return side.build();
}

// Builds every side; false (with the verdict set) when one fails.
bool build_all(const ExecutionContext& ctx, const Benchmark& bench, const EvalRequest& request,
               Programs& p, Evaluation& e) {
  p.candidate = std::make_unique<ProgramSide>(ctx, bench);
  e.build = build_side(bench, &request.source, *p.candidate);
  if (!e.build.ok) {
    set_verdict(e, verdict::kBuildFailed, "compile", e.build.failure);
    return false;
  }
  p.original = std::make_unique<ProgramSide>(ctx, bench);
  BuildOutcome original = build_side(bench, nullptr, *p.original);
  if (!original.ok) {
    set_verdict(e, verdict::kError, "setup", "the original does not build: " + original.failure);
    return false;
  }
  if (!request.baseline_source) return true;
  p.baseline = std::make_unique<ProgramSide>(ctx, bench);
  BuildOutcome baseline = build_side(bench, &*request.baseline_source, *p.baseline);
  if (!baseline.ok)
    set_verdict(e, verdict::kError, "setup",
                "the baseline " + e.baseline + " does not build: " + baseline.failure);
  return baseline.ok;
}

// One run of each side, checked by the program's check and compared; fills e.check.
bool check_runs(const ExecutionContext& ctx, const Benchmark& bench, Programs& p, Evaluation& e) {
  const TimingLease work("kopt: checking " + bench.name, -1, LeaseKind::work);
  const ProgramRun original = p.original->run(e.check_seeds.front());
  const ProgramRun candidate = p.candidate->run(e.check_seeds.front());
  e.program->original_output = tail(original.process.output, 2000);
  e.program->candidate_output = tail(candidate.process.output, 2000);
  ++e.program->runs_checked;
  CheckOutcome check;
  check.seeds = e.check_seeds;
  CheckCase run;
  run.original_seconds = original.process.wall_seconds;
  run.candidate_seconds = candidate.process.wall_seconds;
  std::string category;
  if (std::string why = run_failure(bench.program, original, category); !why.empty()) {
    set_verdict(e, verdict::kError, "setup", "the original fails its own check: " + why);
    return false;
  }
  check.reason = run_failure(bench.program, candidate, category);
  if (check.reason.empty()) {
    check.reason = compare_failure(ctx, bench, original, candidate);
    category = "wrong";
  }
  check.ok = run.ok = check.reason.empty();
  check.category = run.category = check.ok ? "" : category;
  run.reason = check.reason;
  check.cases.push_back(run);
  e.check = check;
  if (!check.ok) set_verdict(e, verdict::kIncorrect, check.category, check.reason);
  return check.ok;
}

// One timed run on `seed`; false (with `out` failed) when it fails the program's check.
bool timed_run(ProgramSide& side, bool is_candidate, uint64_t seed, const ProgramSpec& spec,
               TimingOutcome& out, ProgramRecord& record) {
  const ProgramRun run = side.run(seed);
  std::string category;
  if (std::string why = run_failure(spec, run, category); !why.empty()) {
    out.ok = false;
    out.category = category;
    out.baseline_failed = !is_candidate;
    out.reason = std::string(is_candidate ? "" : "the baseline failed: ") + "in timed run " +
                 std::to_string(out.rounds + 1) + ", " + why;
    return false;
  }
  const double wall = run.process.wall_seconds;
  (is_candidate ? out.candidate : out.baseline).push_back({wall});
  out.timed_seconds += wall;
  if (run.region_seconds) {
    (is_candidate ? record.candidate_region : record.baseline_region)
        .push_back(*run.region_seconds);
    record.region_over_wall += is_candidate && *run.region_seconds > wall;
  }
  record.runs_checked += is_candidate;
  out.captures_checked += is_candidate;
  return true;
}

// A pair of runs on one fresh seed in alternating order (baseline first in even pairs), their
// outputs compared; its log-ratio.
bool timed_pair(const ExecutionContext& ctx, const Benchmark& bench, Programs& p,
                TimingOutcome& out, ProgramRecord& record) {
  const bool candidate_first = out.rounds % 2 == 1;
  const uint64_t seed = unpredictable_u64();
  for (int k = 0; k < 2; ++k) {
    const bool candidate = (k == 0) == candidate_first;
    if (!timed_run(candidate ? *p.candidate : p.timing_baseline(), candidate, seed, bench.program,
                   out, record))
      return false;
  }
  if (std::string why =
          compare_failure(ctx, bench, p.timing_baseline().last_run(), p.candidate->last_run());
      !why.empty()) {
    out.ok = false;
    out.category = "wrong";
    out.reason = "in timed pair " + std::to_string(out.rounds + 1) + ", " + why;
    return false;
  }
  out.log_ratios.push_back(std::log(out.baseline.back()[0] / out.candidate.back()[0]));
  ++out.rounds;
  return true;
}

double median_of(std::vector<double> values) {
  return values.empty() ? 0 : upper_median(std::move(values));
}

// An outcome ready for pairs: no failure yet, the looks' level.
TimingOutcome fresh_outcome(const TimingOptions& options) {
  TimingOutcome out;
  out.ok = true;
  out.test = "Wilcoxon signed-rank on pair log-ratios of whole runs' wall times";
  out.alpha_per_look = options.plan.alpha_per_look();
  out.ci_level = 1 - out.alpha_per_look;
  out.baseline_reps = out.candidate_reps = 1;
  return out;
}

TimingOutcome time_programs(const ExecutionContext& ctx, const Benchmark& bench, Programs& p,
                            const TimingOptions& options, ProgramRecord& record) {
  const TimingLease lease("kopt: timing " + bench.name);
  const auto start = Clock::now();
  // Warm-up: one pair, checked, not counted (the page cache, the binaries' first load).
  TimingOutcome warm = fresh_outcome(options);
  ProgramRecord unused;
  if (!timed_pair(ctx, bench, p, warm, unused)) return warm;
  ++record.runs_checked;
  TimingOutcome out = fresh_outcome(options);
  out.warmup = 1;
  const auto timed_start = Clock::now();
  while (timed_pair(ctx, bench, p, out, record)) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - timed_start).count();
    if (look_due(out, options, elapsed) && take_look(out, options, elapsed)) break;
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double base = median_of(record.baseline_region), cand = median_of(record.candidate_region);
  record.region_speedup = base > 0 && cand > 0 ? base / cand : 0;
  return out;
}

ProgramRecord program_record(const ProgramSpec& spec) {
  ProgramRecord record;
  record.build = spec.build;
  record.run = spec.run;
  record.pass_regex = spec.check.pass_regex;
  record.compare = spec.check.compare;
  record.region_regex = spec.region_regex;
  return record;
}

}  // namespace

void evaluate_program(const ExecutionContext& ctx, const Benchmark& bench,
                      const EvalRequest& request, const ProgressFn& progress, Evaluation& e) {
  e.verdict_strength = strength::kProgram;
  e.check_seeds.resize(1);  // One checked run per side; each timed pair draws its own seed.
  e.program = program_record(bench.program);
  progress("build");
  Programs programs;
  if (!build_all(ctx, bench, request, programs, e)) return;
  progress("check");
  if (!check_runs(ctx, bench, programs, e)) return;
  if (!request.time)
    return set_verdict(e, verdict::kCorrect, "", "passes the program's check (not timed)");
  progress("time");
  e.timing = time_programs(ctx, bench, programs, request.timing, *e.program);
  judge_timing(e);
}

BuildOutcome build_program(const ExecutionContext& ctx, const Benchmark& bench,
                           const std::string& source) {
  ProgramSide side(ctx, bench);
  return build_side(bench, &source, side);
}

}  // namespace kopt
