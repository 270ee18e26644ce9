#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

void print_build(const Evaluation& e) {
  const BuildOutcome& b = e.build;
  fmt::print("build      {}{} {:.2f} s\n", b.ok ? "ok" : "FAILED", b.cached ? " (cached)" : "",
             b.seconds);
  if (!b.ok && !b.log.empty() && !b.rejected()) fmt::print("{}\n", b.log);
}

void print_check(const Evaluation& e) {
  if (!e.check) return;
  const CheckOutcome& c = *e.check;
  double max_rel = 0;
  std::set<long> sizes;
  std::set<int> threads;
  for (const auto& k : c.cases) {
    max_rel = std::max(max_rel, k.max_rel_error);
    sizes.insert(k.size);
    if (k.threads > 0) threads.insert(k.threads);
  }
  std::string thread_counts;
  for (int t : threads)
    thread_counts += fmt::format(", again with {} thread{}", t, t == 1 ? "" : "s");
  if (c.ok)
    fmt::print(
        "check      ok: {} sizes{}, up to {} seeds and edge cases{}, max relative error {:.3g}\n",
        sizes.size(),
        sizes.empty() ? "" : fmt::format(" from n = {} to {}", *sizes.begin(), *sizes.rbegin()),
        c.seeds.size(), thread_counts, max_rel);
  else
    fmt::print("check      FAILED ({})\n", c.category);
}

void print_timing(const Evaluation& e) {
  if (!e.timing) return;
  const TimingOutcome& t = *e.timing;
  if (!t.ok) {
    fmt::print("time       FAILED ({})\n", t.category);
    return;
  }
  auto side = [](const Spread& s) {
    return fmt::format("{:.4g} ms [IQR {:.4g}-{:.4g}]", s.median * 1e3, s.p25 * 1e3, s.p75 * 1e3);
  };
  fmt::print("time       {} {}  candidate {}\n", e.baseline, side(t.baseline_spread),
             side(t.candidate_spread));
  fmt::print(
      "           {} rounds, {} calls per block, {} timed outputs checked, {} decoy calls on edge "
      "cases\n",
      t.rounds, t.candidate_reps, t.captures_checked, t.decoys_checked);
  if (!t.waits_alike)
    fmt::print(
        "           wall times kept: the candidate's main thread waited for a CPU "
        "markedly more than the baseline's (its own doing: pinned or yielding)\n");
  if (t.pairs_without_waits > 0) {
    double waits = 0;
    for (const auto* waits_of_side : {&t.baseline_waits, &t.candidate_waits})
      for (double w : *waits_of_side) waits += w;
    fmt::print(
        "           {} of {} pairs timed without their waits for a CPU ({:.3g} ms a call "
        "left out, on average)\n",
        t.pairs_without_waits, t.rounds,
        waits * 1e3 / static_cast<double>(2 * t.pairs_without_waits));
  }
  fmt::print("speedup    {:.3f}x  interval [{:.3f}, {:.3f}]  {} p = {:.2g}\n", t.interval.speedup,
             t.interval.low, t.interval.high, t.test, t.p_value);
  if (e.placement)
    fmt::print("achieved   {:.3g} GFLOP/s, {:.3g} GB/s (original {:.3g} GFLOP/s, {:.3g} GB/s)\n",
               e.placement->candidate_gflops, e.placement->candidate_gbytes,
               e.placement->baseline_gflops, e.placement->baseline_gbytes);
}

// A program's check and timing: runs, not calls; the printed region time beside kopt's.
void print_program(const Evaluation& e) {
  const ProgramRecord& p = *e.program;
  if (e.check)
    fmt::print(
        "check      {}: {}{}\n", e.check->ok ? "ok" : "FAILED",
        p.pass_regex.empty() ? "" : "PASS regex '" + p.pass_regex + "'",
        p.compare.empty() ? "" : (p.pass_regex.empty() ? "" : ", ") + std::string("compare"));
  if (!e.timing) return;
  const TimingOutcome& t = *e.timing;
  if (!t.ok) {
    fmt::print("time       FAILED ({})\n", t.category);
    return;
  }
  fmt::print(
      "time       wall of whole runs: {} {:.4g} ms, candidate {:.4g} ms; {} pairs, {} runs "
      "checked\n",
      e.baseline, t.baseline_spread.median * 1e3, t.candidate_spread.median * 1e3, t.rounds,
      p.runs_checked);
  fmt::print("speedup    {:.3f}x  interval [{:.3f}, {:.3f}]  {} p = {:.2g}\n", t.interval.speedup,
             t.interval.low, t.interval.high, t.test, t.p_value);
  if (p.region_speedup > 0)
    fmt::print(
        "printed    {:.3f}x by the times the programs print (not trusted: the candidate's "
        "own claim)\n",
        p.region_speedup);
  if (p.region_over_wall > 0)
    fmt::print("           {} candidate runs printed a time longer than the whole run took\n",
               p.region_over_wall);
}

void print_human(const Benchmark& bench, const Evaluation& e) {
  fmt::print("benchmark  {} ({}), sandbox: {}\n", bench.name,
             bench.is_program() ? std::string("whole program") : to_string(bench.language),
             e.sandbox);
  fmt::print("candidate  {} against the {}\n", e.label, e.baseline);
  print_build(e);
  if (e.program) {
    print_program(e);
  } else {
    print_check(e);
    print_timing(e);
  }
  fmt::print("verdict    {}\n", one_line(e));
}

int exit_code(const Evaluation& e) {
  if (e.correct()) return 0;
  return e.status == verdict::kError ? 3 : 1;
}

int run_eval(const Args& args) {
  Benchmark bench = load_benchmark_arg(args, args.get("BENCH"));
  Variant variant = load_variant(bench, args.get("variant"));
  EvaluatorSession session(args);
  EvalRequest request;
  request.source = variant.source;
  request.label = variant.label;
  request.time = !args.flag("no-time");
  request.timing.budget_seconds = args.get_double("timing-budget", 0, 86400);
  if (args.has("seed")) request.seed = static_cast<uint64_t>(args.get_int("seed"));
  StatusLine status;
  Evaluation e = session.evaluator().evaluate(bench, request, [&](const std::string& stage) {
    status.update(fmt::format("kopt eval {} {}: {}...", bench.name, variant.label, stage));
  });
  status.clear();
  if (args.has("save"))
    if (auto st = write_json_file(args.get("save"), to_json(e)); !st)
      throw UsageError{st.error().message};
  if (args.flag("json"))
    std::cout << dump_json(to_json(e), 2) << "\n";
  else
    print_human(bench, e);
  return exit_code(e);
}

}  // namespace

CommandSpec eval_command() {
  std::vector<OptionSpec> options = {
      {"BENCH", "Benchmark name or folder", "", false, true},
      {"--variant", "original, human, or a kernel file to evaluate", "original"},
      {"--json", "Print the full evaluation document (kopt-evaluation/1) with every sample", "",
       true},
      {"--save", "Also write the evaluation document to this file"},
      {"--no-time", "Build and check only", "", true},
      {"--timing-budget", "Seconds the timing stage's paired blocks may take after the warm-up",
       "20"},
      {"--seed", "Seed for drawing check and timing seeds (default: fresh entropy)"}};
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"eval", "Build, check and time one variant of a benchmark against its original", options,
          run_eval};
}

}  // namespace kopt::cli
