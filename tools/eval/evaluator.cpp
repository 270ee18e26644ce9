#include "tools/eval/evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>

#include <fmt/format.h>

#include "tools/benchmark/expression.h"
#include "tools/eval/check_plans.h"
#include "tools/eval/driver_session.h"
#include "tools/eval/file_protocol.h"
#include "tools/eval/plausibility.h"
#include "tools/eval/program_eval.h"
#include "util/entropy.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

std::vector<uint64_t> draw_seeds(std::mt19937_64& rng, int count) {
  std::vector<uint64_t> seeds;
  // 63 bits, as every timed call's (FreshSeeds): a check seed must not look unlike a timed one.
  for (int i = 0; i < count; ++i) seeds.push_back(rng() >> 1);
  return seeds;
}

Placement place(const Benchmark& bench, const TimingOutcome& t) {
  Placement p;
  p.flops = bench.work_at(bench.flops, bench.time_size).value();
  p.bytes = bench.work_at(bench.bytes, bench.time_size).value();
  auto rate = [](double work, double seconds) { return seconds > 0 ? work / seconds * 1e-9 : 0; };
  p.baseline_gflops = rate(p.flops, t.baseline_spread.median);
  p.baseline_gbytes = rate(p.bytes, t.baseline_spread.median);
  p.candidate_gflops = rate(p.flops, t.candidate_spread.median);
  p.candidate_gbytes = rate(p.bytes, t.candidate_spread.median);
  return p;
}

// A faster candidate is held to the roofline: faster than the hardware allows is rejected.
void gate_on_roofline(const ExecutionContext& ctx, const Benchmark& bench, Evaluation& e) {
  const auto roof = roof_for(ctx, bench);
  if (!roof) return;
  const double footprint =
      bench.work_at(bench.footprint, bench.time_size).value_or(e.placement->bytes);
  e.plausibility = judge_plausibility(e.placement->flops, e.placement->bytes, footprint,
                                      e.timing->candidate_spread.median, *roof);
  if (!e.plausibility->ok) set_verdict(e, verdict::kRejected, "roofline", e.plausibility->reason);
}

// The verdict of a finished timing stage: faster, slower or neither, then the roofline gate.
void judge_timed(const ExecutionContext& ctx, const Benchmark& bench, Evaluation& e) {
  judge_timing(e);
  if (e.timing->ok) e.placement = place(bench, *e.timing);
  if (e.status == verdict::kFaster) gate_on_roofline(ctx, bench, e);
}

void judge_check(Evaluation& e) {
  const bool infra = e.check->category == "error" || e.check->category == "no-gpu";
  set_verdict(e, infra ? verdict::kError : verdict::kIncorrect, e.check->category, e.check->reason);
}

uint64_t memory_limit(const Benchmark& bench) {
  return bench.language == Language::cuda ? 0 : default_memory_limit();
}

// The binaries an evaluation runs: the original (the check's reference), the baseline it is
// timed against (the original, or say the human version) and the candidate.
struct Binaries {
  std::filesystem::path original, baseline, candidate;
};

// An OpenMP kernel is timed with one thread per hardware thread, but kernel.h promises its
// result whatever the count: a kernel that splits the work by a fixed count (thread 0 the first
// half, thread 1 the second), keeps per-thread state for a few threads or takes a serial path
// of its own with one thread is wrong with another. It is checked again in fresh sessions at
// other thread counts (check_plans.h says which, and with what).
void check_thread_counts(const ExecutionContext& ctx, const Benchmark& bench,
                         const Binaries& binaries, Evaluation& e) {
  if (bench.language != Language::openmp) return;
  const auto given = ctx.run_env.find("OMP_NUM_THREADS");
  const int machine =
      given == ctx.run_env.end() ? 1 : std::max(1, std::atoi(given->second.c_str()));
  const std::vector<int> counts = recheck_thread_counts(machine, e.size_seed);
  for (size_t count = 0; count < counts.size(); ++count) {
    const int threads = counts[count];
    ExecutionContext other = ctx;
    other.run_env["OMP_NUM_THREADS"] = std::to_string(threads);
    DriverSession original(other, bench, binaries.original, memory_limit(bench));
    DriverSession candidate(other, bench, binaries.candidate, memory_limit(bench));
    CheckSides sides{&original, &candidate};
    CheckOutcome& check = *e.check;
    const size_t first = check.cases.size();
    if (original.failed() || candidate.failed()) {
      const bool ours = original.failed();
      check.cases.push_back(
          fail_case(0, ours ? "error" : candidate.failure().category,
                    (ours ? "the original's driver does not start: " + original.failure().reason
                          : candidate.failure().reason)));
      check.ok = false;
      check.category = check.cases.back().category;
      check.reason = check.cases.back().reason;
    } else {
      check_more(other, bench, sides,
                 thread_recheck_plans(bench, e.size_seed, static_cast<int>(count)), check);
    }
    for (size_t k = first; k < check.cases.size(); ++k) check.cases[k].threads = threads;
    if (check.ok) continue;
    check.reason +=
        fmt::format(" (with {} OpenMP thread{}: a kernel must be right with any count up to {})",
                    threads, threads == 1 ? "" : "s", counts.back());
    return;
  }
}

// CPU benchmarks: one session per side serves the check and then the timing, so the kernel
// sees the same kind of call throughout; the time size is checked too. A baseline other than
// the original gets its own session for the timing, and the candidate's timed outputs are
// compared with its outputs.
void check_and_time(const ExecutionContext& ctx, const Benchmark& bench, const EvalRequest& request,
                    const ProgressFn& progress, const Binaries& binaries, Evaluation& e) {
  std::optional<TimingLease> work;  // The check beside other kopts' work, never their timing.
  work.emplace("kopt: checking " + bench.name, -1, LeaseKind::work);
  DriverSession original(ctx, bench, binaries.original, memory_limit(bench));
  if (original.failed())
    return set_verdict(e, verdict::kError, "setup",
                       "the original's driver does not start: " + original.failure().reason);
  DriverSession candidate(ctx, bench, binaries.candidate, memory_limit(bench));
  CheckSides sides{&original, &candidate};
  const std::vector<SizePlan> plans = check_plans(bench, e.size_seed, !request.time);
  e.check = candidate.failed() ? CheckOutcome{false,
                                              candidate.failure().category,
                                              candidate.failure().reason,
                                              e.check_seeds,
                                              {},
                                              0}
                               : check_candidate(ctx, bench, sides, e.check_seeds, plans);
  e.check->rtol = bench.rtol;
  e.check->atol = bench.atol;
  if (e.check->ok) check_more(ctx, bench, sides, later_plans(bench, e.size_seed, plans), *e.check);
  if (e.check->ok) check_thread_counts(ctx, bench, binaries, e);
  if (!e.check->ok) return judge_check(e);
  if (!request.time)
    return set_verdict(e, verdict::kCorrect, "",
                       "same outputs as the original on every check (not timed)");
  work.reset();  // The timing takes the CPUs for itself.
  progress("time");
  std::optional<DriverSession> other;
  if (binaries.baseline != binaries.original) {
    other.emplace(ctx, bench, binaries.baseline, memory_limit(bench));
    if (other->failed())
      return set_verdict(
          e, verdict::kError, "setup",
          "the " + e.baseline + "'s driver does not start: " + other->failure().reason);
    sides.original = &*other;
  }
  const int threads = allowed_threads(bench, ctx, sides.original_threads);
  e.timing = time_candidate(bench, sides, e.timing_seed, e.check_seeds, request.timing, threads);
  judge_timed(ctx, bench, e);
}

// CUDA benchmarks: the file protocol, one process per size and per timing round.
void check_and_time_with_files(const ExecutionContext& ctx, const Benchmark& bench,
                               const EvalRequest& request, const ProgressFn& progress,
                               const Binaries& binaries, Evaluation& e) {
  {
    const TimingLease work("kopt: checking " + bench.name, -1, LeaseKind::work);
    e.check = check_with_files(ctx, bench, binaries.original, binaries.candidate, e.check_seeds,
                               e.size_seed);
  }
  e.check->rtol = bench.rtol;
  e.check->atol = bench.atol;
  if (!e.check->ok) return judge_check(e);
  if (!request.time)
    return set_verdict(e, verdict::kCorrect, "",
                       "same outputs as the original on every check (not timed)");
  progress("time");
  // The timed calls' reference: the original's outputs for the timing seed (no edge cases: at
  // the time size each would add the outputs' size to the file again).
  DriverRequest ref_request{"check", bench.time_size,           {e.timing_seed},     0,    1,
                            {},      std::chrono::seconds(600), memory_limit(bench), false};
  DriverRun reference = run_driver(ctx, bench, binaries.original, ref_request);
  if (!reference.failure.empty() || reference.outputs.empty())
    return set_verdict(
        e, verdict::kError, "setup",
        "the original fails at the time size: " +
            (reference.failure.empty() ? "it recorded no outputs" : reference.failure));
  const int threads = allowed_threads(bench, ctx, reference.threads_max);
  e.timing =
      time_with_files(ctx, bench, binaries.baseline, binaries.candidate, reference.outputs[0],
                      e.timing_seed, request.timing.budget_seconds, threads);
  judge_timed(ctx, bench, e);
}

// Builds, checks and times; returns early with the verdict set at the first failure.
void run_stages(const ExecutionContext& ctx, Builder& builder, const Benchmark& bench,
                const EvalRequest& request, const ProgressFn& progress, Evaluation& e) {
  progress("build");
  e.build = builder.build(bench, request.source);
  if (!e.build.ok)
    return set_verdict(e, e.build.rejected() ? verdict::kRejected : verdict::kBuildFailed,
                       e.build.rejected() ? e.build.findings.front().category : "compile",
                       e.build.failure);
  auto original_source = read_file(bench.kernel_path());
  if (!original_source)
    return set_verdict(e, verdict::kError, "setup", original_source.error().message);
  BuildOutcome original = builder.build(bench, *original_source);
  if (!original.ok)
    return set_verdict(e, verdict::kError, "setup",
                       "the original does not build: " + original.failure);
  e.original_remarks = original.remarks;
  Binaries binaries{original.binary, original.binary, e.build.binary};
  if (request.baseline_source) {
    BuildOutcome baseline = builder.build(bench, *request.baseline_source);
    if (!baseline.ok)
      return set_verdict(e, verdict::kError, "setup",
                         "the baseline " + e.baseline + " does not build: " + baseline.failure);
    binaries.baseline = baseline.binary;
  }
  progress("check");
  if (bench.language == Language::cuda)
    check_and_time_with_files(ctx, bench, request, progress, binaries, e);
  else
    check_and_time(ctx, bench, request, progress, binaries, e);
}

}  // namespace

Evaluation LocalEvaluator::evaluate(const Benchmark& bench, const EvalRequest& request,
                                    const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  Evaluation e;
  e.benchmark = bench.name;
  e.benchmark_hash = bench.hash;
  e.label = request.label;
  e.baseline = request.baseline_label;
  e.source_hash = hash_hex(request.source);
  e.sandbox = describe(ctx_.policy);
  e.environment = ctx_.run_env;
  e.started = now_iso8601();
  // The check's seeds come from --seed when one is given (a reproducible check); otherwise, like
  // every timed call's seed (FreshSeeds in timing.cpp), from the operating system.
  std::mt19937_64 rng(request.seed ? *request.seed : unpredictable_u64());
  e.check_seeds = draw_seeds(rng, bench.seeds);
  e.timing_seed = draw_seeds(rng, 1).front();
  e.size_seed = request.seed ? rng() : unpredictable_u64();
  const ProgressFn report = progress ? progress : [](const std::string&) {};
  if (bench.is_program())
    evaluate_program(ctx_, bench, request, report, e);
  else
    run_stages(ctx_, builder_, bench, request, report, e);
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

BuildOutcome LocalEvaluator::build(const Benchmark& bench, const std::string& source) {
  if (bench.is_program()) return build_program(ctx_, bench, source);
  return builder_.build(bench, source);
}

}  // namespace kopt
