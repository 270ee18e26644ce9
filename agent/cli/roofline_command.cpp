#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/one_question.h"
#include "agent/cli/source_options.h"
#include "agent/cli/status_line.h"
#include "tools/machine/hardware.h"
#include "tools/roofline/file_roofline.h"
#include "tools/roofline/llm_prompt.h"
#include "tools/roofline/profiling_csv.h"
#include "tools/roofline/roofline.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt::cli {

namespace {

// The benchmark and variant: "BENCH [--variant V]" or "FILE --bench BENCH".
std::pair<Benchmark, Variant> target(const Args& args) {
  const std::string name = args.get("TARGET");
  if (std::filesystem::is_regular_file(name)) {
    if (!args.has("bench"))
      throw UsageError{"a kernel FILE needs --bench BENCH (whose kernel it replaces)"};
    Benchmark bench = load_benchmark_arg(args, args.get("bench"));
    refuse_program(bench);
    return {bench, load_variant(bench, name)};
  }
  Benchmark bench = load_benchmark_arg(args, name);
  refuse_program(bench);
  return {bench, load_variant(bench, args.get("variant"))};
}

Result<RooflineReport> ask_llm(const Args& args, const Benchmark& bench, const Variant& variant,
                               const RooflineMachine& machine) {
  if (!args.has("llm")) return fail("--method llm needs --llm SPEC (or KOPT_LLM)");
  auto prompt = roofline_prompt(bench, variant.source, machine.description, machine.peaks);
  if (!prompt) return prompt.error();
  auto answer = ask_one_question(args.get("llm"), prompt->system, prompt->user);
  if (!answer) return answer.error();
  auto cls = parse_roofline_answer(answer->text);
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
      {"model", answer->model}, {"prompt_hash", prompt->hash}, {"answer", answer->text}};
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

std::string gpu_arch(const std::string& hardware) {
  if (hardware == "rtx3080") return "compute_86";
  if (hardware == "h100" || hardware == "h200") return "compute_90";
  return "compute_80";
}

// `kopt roofline FILE`: every kernel of any source file, compiled where it lies.
int roofline_file(const Args& args) {
  if (args.has("method") && args.get("method") != "static")
    throw UsageError{"a kernel FILE without --bench takes --method static"};
  FileRooflineRequest request;
  request.source = source_file(args, "TARGET");
  request.kernel = args.get("kernel");
  if (args.has("launch")) request.launch = parse_launch(args.get("launch"));
  request.args = parse_kernel_args(args.get("args"));
  std::string hardware = args.get("hardware");
  if (is_cuda_file(request.source.path) && hardware == "host") {
    hardware = "h100";
    fmt::print(stderr, "kopt roofline: a CUDA file without --hardware is drawn for the h100\n");
  }
  auto spec = find_hardware(hardware == "host" ? "rtx3080" : hardware);
  EvaluatorSession session(args);
  auto machine = roofline_machine(hardware, session.evaluator().context());
  if (!machine) throw UsageError{machine.error().message};
  if (spec) request.source.gpu_arch = gpu_arch(spec->name);
  auto report = roofline_of_file(session.evaluator().context(), request, machine->peaks, hardware);
  if (!report) {
    fmt::print(stderr, "kopt roofline: {}\n", report.error().message);
    return kExitFailed;
  }
  if (const std::string missing = missing_kernel_message(*report, request); !missing.empty()) {
    fmt::print(stderr, "kopt roofline: {}\n", missing);
    return kExitFailed;
  }
  std::cout << (args.flag("json") ? dump_json(to_json(*report), 2) + "\n" : summarize(*report));
  return kExitOk;
}

int run_roofline(const Args& args) {
  if (args.has("counters-csv")) return reproduce_csv(args);
  if (args.has("TARGET") && !args.has("bench") &&
      std::filesystem::is_regular_file(args.get("TARGET")))
    return roofline_file(args);
  if (!args.has("TARGET")) throw UsageError{"give a benchmark or a kernel FILE"};
  names_source_file(args.get("TARGET"));  // A missing FILE is said so, not taken for a name.
  const std::string method = args.has("method") ? args.get("method") : "measured";
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
      {"TARGET", "Benchmark name or folder, or a kernel FILE (.cu, .cpp: every kernel in it)"},
      {"--bench", "The benchmark whose kernel FILE replaces (else FILE is analysed on its own)"},
      {"--launch", "FILE (CUDA): GRID,BLOCK, each X[xY[xZ]] (default: assumed and said so)"},
      {"--variant", "original, human, or a kernel file", "original"},
      {"--hardware",
       "host (measured, cached) or a GPU of the hardware table (rtx3080, a100, h100, h200)",
       "host"},
      {"--method",
       "measured (analytic work and time, or GPU counters; a benchmark's default), static "
       "(compiled code; a FILE's only method) or llm"},
      {"--llm", "LLM backend spec for --method llm", "", false, false, "KOPT_LLM"},
      {"--size", "Problem size (default: the manifest's time size)"},
      {"--json", "Print the kopt-roofline/1 document", "", true},
      {"--counters-csv", "Classify every row of a profiling CSV (gpuFLOPBench layout) instead"}};
  const auto file_options = source_file_options();
  options.insert(options.begin() + 2, file_options.begin(), file_options.end());
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"roofline", "Classify a kernel as compute-, bandwidth- or latency-bound on a machine",
          options, run_roofline};
}

}  // namespace kopt::cli
