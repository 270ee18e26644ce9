#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "tools/profile/profile_request.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

CpuProfileOptions profile_options(const Args& args) {
  CpuProfileOptions options;
  if (args.has("size")) options.size = args.get_int("size", 1);
  options.seconds = args.get_double("seconds", 0, 3600);
  options.profiler = args.get("profiler");
  options.measure_overhead = args.flag("overhead");
  if (options.profiler != "auto" && options.profiler != "perf" && options.profiler != "callgrind")
    throw UsageError{"--profiler must be auto, perf or callgrind"};
  if (!(options.seconds > 0)) throw UsageError{"--seconds must be positive"};
  if (args.get("keep") != "none") options.keep_dir = args.get("keep");
  return options;
}

int run_profile(const Args& args) {
  Benchmark bench = load_benchmark_arg(args, args.get("BENCH"));
  refuse_program(bench);
  Variant variant = load_variant(bench, args.get("variant"));
  const CpuProfileOptions options = profile_options(args);
  const int top = static_cast<int>(args.get_int("top", 1, 10000));
  EvaluatorSession session(args);
  StatusLine status;
  status.update(
      fmt::format("kopt profile {} {}: build, calibrate, sample...", bench.name, variant.label));
  ProfileOutcome outcome = profile_variant(session.evaluator(), session.evaluator().context(),
                                           bench, variant.source, variant.label, options, top);
  status.clear();
  if (args.flag("json"))
    std::cout << dump_json(outcome.data, 2) << "\n";
  else
    std::cout << outcome.text;
  if (!outcome.ok && args.flag("json")) fmt::print(stderr, "kopt profile: {}\n", outcome.failure);
  return outcome.ok ? 0 : 3;
}

}  // namespace

CommandSpec profile_command() {
  std::vector<OptionSpec> options = {
      {"BENCH", "Benchmark name or folder", "", false, true},
      {"--variant", "original, human, or a kernel file to profile", "original"},
      {"--json", "Print every count (kopt-profile/1) instead of the ranked summary", "", true},
      {"--size", "Problem size (default: the manifest's time size)"},
      {"--seconds", "Length of the sampled run", "2"},
      {"--profiler", "auto (perf, else callgrind), perf or callgrind", "auto"},
      {"--overhead", "Also time the driver with and without perf and report the difference", "",
       true},
      {"--top", "Lines in the ranked summary", "8"},
      {"--keep",
       "Where to keep perf.data (or callgrind.out) and the profiled driver for perf report, "
       "hotspot or kcachegrind; 'none' keeps nothing",
       "kopt-profile"}};
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"profile", "Profile a variant of a benchmark and rank the kernel's source lines by time",
          options, run_profile};
}

}  // namespace kopt::cli
