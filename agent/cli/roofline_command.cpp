#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "agent/llm/backend_factory.h"
#include "tools/machine/hardware.h"
#include "tools/roofline/llm_prompt.h"
#include "tools/roofline/profiling_csv.h"
#include "tools/roofline/roofline.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

// The benchmark and variant: "BENCH [--variant V]" or "FILE --bench BENCH".
std::pair<Benchmark, Variant> target(const Args& args) {
  const std::string name = args.get("TARGET");
  if (std::filesystem::is_regular_file(name)) {
    if (!args.has("bench"))
      throw UsageError{"a kernel FILE needs --bench BENCH (whose kernel it replaces)"};
    Benchmark bench = load_benchmark_arg(args, args.get("bench"));
    return {bench, load_variant(bench, name)};
  }
  Benchmark bench = load_benchmark_arg(args, name);
  return {bench, load_variant(bench, args.get("variant"))};
}

Result<RooflineReport> ask_llm(const Args& args, const Benchmark& bench, const Variant& variant,
                               const RooflineMachine& machine) {
  if (!args.has("llm")) return fail("--method llm needs --llm SPEC (or KOPT_LLM)");
  auto prompt = roofline_prompt(bench, variant.source, machine.description, machine.peaks);
  if (!prompt) return prompt.error();
  auto backend = llm::make_backend(args.get("llm"));
  if (!backend) return backend.error();
  llm::ChatRequest request;
  request.system = prompt->system;
  request.messages.push_back(llm::user_message(prompt->user));
  request.temperature = 0.0;
  request.max_tokens = 4096;
  auto response = (*backend)->chat(request);
  if (!response) return response.error();
  auto cls = parse_roofline_answer(response->text);
  if (!cls) return cls.error();
  RooflineReport report;
  report.benchmark = bench.name;
  report.variant = variant.label;
  report.method = "llm";
  report.hardware = args.get("hardware");
  report.peaks = machine.peaks;
  report.point.balance = balance_points(machine.peaks);
  report.point.by_intensity = report.point.cls = *cls;
  report.detail = {
      {"model", (*backend)->name()}, {"prompt_hash", prompt->hash}, {"answer", response->text}};
  report.notes.push_back("the model's class from source and specs; intensities are not estimated");
  return report;
}

int reproduce_csv(const Args& args) {
  auto rows = read_profiling_csv(args.get("counters-csv"));
  if (!rows) throw UsageError{rows.error().message};
  auto spec = find_hardware(args.get("hardware") == "host" ? "rtx3080" : args.get("hardware"));
  if (!spec) throw UsageError{spec.error().message};
  const Intensities b = balance_points(spec->peaks);
  std::map<std::string, int> classes;
  int agree_with_columns = 0;
  for (const auto& row : *rows) {
    const RooflinePoint p = place(row.counters, spec->peaks);
    ++classes[to_string(p.cls)];
    agree_with_columns += p.by_intensity == paper_class(row.given, b);
  }
  fmt::print("{} launches on {}: balance fp32 {:.2f}, fp64 {:.3f}, int {:.2f} op/byte\n",
             rows->size(), spec->name, b.fp32, b.fp64, b.int_ops);
  for (const auto& [cls, count] : classes) fmt::print("  {:<16} {}\n", cls, count);
  fmt::print(
      "class from raw rates agrees with the rule on the file's intensity columns: {} of {}\n",
      agree_with_columns, rows->size());
  return agree_with_columns == static_cast<int>(rows->size()) ? 0 : 1;
}

int run_roofline(const Args& args) {
  if (args.has("counters-csv")) return reproduce_csv(args);
  if (!args.has("TARGET")) throw UsageError{"give a benchmark (or a kernel FILE with --bench)"};
  const std::string method = args.get("method");
  if (method != "measured" && method != "static" && method != "llm")
    throw UsageError{"--method must be measured, static or llm"};
  const long size = args.has("size") ? args.get_int("size", 1) : 0;
  auto [bench, variant] = target(args);
  EvaluatorSession session(args);
  StatusLine status;
  status.update(fmt::format("kopt roofline {} {} ({})...", bench.name, variant.label, method));
  auto machine = roofline_machine(args.get("hardware"), session.evaluator().context());
  if (!machine) throw UsageError{machine.error().message};
  Result<RooflineReport> report = fail("not run");
  if (method == "llm") {
    report = ask_llm(args, bench, variant, *machine);
  } else {
    RooflineRequest request{method, variant.label, variant.source, size};
    report = classify_variant(session.evaluator(), session.evaluator().context(), bench, request,
                              *machine, args.get("hardware"));
  }
  status.clear();
  if (!report) {
    fmt::print(stderr, "kopt roofline: {}\n", report.error().message);
    return 3;
  }
  if (args.flag("json"))
    std::cout << dump_json(to_json(*report), 2) << "\n";
  else
    std::cout << summarize(*report);
  return 0;
}

}  // namespace

CommandSpec roofline_command() {
  std::vector<OptionSpec> options = {
      {"TARGET", "Benchmark name or folder, or a kernel FILE (with --bench)"},
      {"--bench", "The benchmark whose kernel FILE replaces"},
      {"--variant", "original, human, or a kernel file", "original"},
      {"--hardware",
       "host (measured, cached) or a GPU of the hardware table (rtx3080, a100, h100, h200)",
       "host"},
      {"--method",
       "measured (analytic work and time, or GPU counters), static (compiled code) or llm",
       "measured"},
      {"--llm", "LLM backend spec for --method llm", "", false, false, "KOPT_LLM"},
      {"--size", "Problem size (default: the manifest's time size)"},
      {"--json", "Print the kopt-roofline/1 document", "", true},
      {"--counters-csv", "Classify every row of a profiling CSV (gpuFLOPBench layout) instead"}};
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"roofline", "Classify a kernel as compute-, bandwidth- or latency-bound on a machine",
          options, run_roofline};
}

}  // namespace kopt::cli
