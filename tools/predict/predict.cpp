#include "tools/predict/predict.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "tools/eval/static_check.h"
#include "tools/roofline/file_roofline.h"
#include "tools/roofline/ptx_cost.h"
#include "tools/roofline/static_cpu.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace {

// The bandwidth of the innermost level whose capacity holds `bytes` (the triad measured each
// level with half its capacity), else DRAM's.
std::pair<std::string, double> bandwidth_for(const MachineModel& machine, double bytes,
                                             bool parallel) {
  for (const auto& level : machine.caches) {
    const double capacity = 2 * (parallel ? level.all_cores_bytes : level.one_core_bytes);
    const double rate = parallel ? level.rates.all_cores : level.rates.one_core;
    if (level.level >= 2 && bytes <= capacity && rate > 0)
      return {"L" + std::to_string(level.level), rate};
  }
  return {"DRAM", parallel ? machine.bandwidth.all_cores : machine.bandwidth.one_core};
}

}  // namespace

bool runs_in_parallel(const std::string& source) {
  static const std::regex kParallel(
      R"(#\s*pragma\s+omp\s+(parallel|for|taskloop|sections|single|task)\b)");
  return std::regex_search(source, kParallel);
}

TimePrediction predict_time(const StaticCounts& counts, const MachineModel& machine,
                            const Calibration& c, bool parallel) {
  TimePrediction p;
  p.threads = parallel ? std::max(machine.host.threads, 1) : 1;
  const double share = 1.0 / p.threads;
  const double library = std::max(counts.special_calls - counts.square_roots, 0.0);
  p.terms.issue = c.issue * counts.instructions * share;
  p.terms.chain = c.chain * counts.chain_steps * share;
  p.terms.divide = c.divide * counts.divides * share;
  p.terms.special = c.special * library * share;
  // Compulsory bytes cannot exceed the bytes every load and store moves (a footprint the
  // analysis could not bound is summed access by access).
  p.footprint = std::min(counts.counters.dram_bytes, counts.executed_bytes);
  const auto [level, bandwidth] = bandwidth_for(machine, p.footprint, parallel);
  p.memory_level = level;
  if (bandwidth > 0) p.terms.memory = c.memory * p.footprint / bandwidth;
  const double bytes_floor = p.footprint / bandwidth_for(machine, p.footprint, true).second;
  const auto at_peak = [](double work, double peak) { return peak > 0 ? work / peak : 0.0; };
  p.floor_seconds =
      std::max({bytes_floor, at_peak(counts.counters.fp64_flops, machine.fp64.all_cores),
                at_peak(counts.counters.fp32_flops, machine.fp32.all_cores)});
  const std::pair<const char*, double> bounds[] = {{"issue", p.terms.issue},
                                                   {"chain", p.terms.chain},
                                                   {"divide", p.terms.divide},
                                                   {"memory", p.terms.memory}};
  const auto* top =
      std::max_element(std::begin(bounds), std::end(bounds),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  p.bound = top->first;
  p.seconds = top->second + p.terms.special;
  if (p.terms.special > top->second) p.bound = "library calls";
  if (counts.unknown_trip_loops > 0)
    p.notes.push_back(fmt::format("{} loop(s) of unknown trip count assumed to run 16 times",
                                  counts.unknown_trip_loops));
  if (parallel)
    p.notes.push_back(fmt::format("OpenMP: the core-bound terms shared by {} threads", p.threads));
  return p;
}

Json to_json(const TimePrediction& p) {
  return {{"seconds", p.seconds},
          {"bound", p.bound},
          {"threads", p.threads},
          {"memory_level", p.memory_level},
          {"footprint_bytes", p.footprint},
          {"floor_seconds", p.floor_seconds},
          {"terms",
           {{"issue", p.terms.issue},
            {"chain", p.terms.chain},
            {"divide", p.terms.divide},
            {"memory", p.terms.memory},
            {"special", p.terms.special}}},
          {"notes", p.notes}};
}

Result<VariantPrediction> predict_variant(const ExecutionContext& ctx, const Benchmark& bench,
                                          const std::string& variant, const std::string& source,
                                          long size, const MachineModel& machine,
                                          const Calibration& calibration) {
  if (bench.language == Language::cuda)
    return fail(bench.name + " is CUDA: its prediction is predict_gpu_variant's (gpu_predict.h)");
  if (bench.is_program()) return fail(bench.name + " is a whole program, not a kernel function");
  auto estimate = estimate_cpu(ctx, bench, source, size, {}, IrFlavor::native);
  if (!estimate) return estimate.error();
  VariantPrediction out;
  out.benchmark = bench.name;
  out.variant = variant;
  out.size = static_cast<long>(estimate->assumptions.size);
  out.counts = estimate->counts;
  out.toolchain = estimate->toolchain;
  out.time = predict_time(estimate->counts, machine, calibration, runs_in_parallel(source));
  return out;
}

namespace {

// What the prediction of a file's kernel assumed about the parameters nobody gave.
std::string unknown_parameters_note(const FilePredictionRequest& request) {
  const auto given = std::count_if(request.args.begin(), request.args.end(),
                                   [](const auto& a) { return a.has_value(); });
  const TripAssumptions defaults;
  return fmt::format(
      "{} argument(s) given (--args); any other integer parameter is assumed: {:g} for 64-bit "
      "ones (sizes), {:g} for narrower ones",
      given, defaults.size, defaults.default_trips);
}

}  // namespace

std::string cuda_file_refusal(const std::string& file) {
  return "the time of a CUDA kernel depends on its launch: give " + file +
         " --launch GRID,BLOCK (its static counts and class without one: kopt roofline " + file +
         " --hardware GPU)";
}

Result<std::vector<VariantPrediction>> predict_file(const ExecutionContext& ctx,
                                                    const FilePredictionRequest& request,
                                                    const MachineModel& machine,
                                                    const Calibration& calibration) {
  const std::string file = request.source.path.string();
  if (is_cuda_file(request.source.path)) return fail(cuda_file_refusal(file));
  auto source = read_file(request.source.path);
  if (!source) return source.error();
  auto ir = compile_ir(ctx, request.source, /*native=*/true);
  if (!ir) return ir.error();
  const auto functions = parse_llvm_ir(ir->ir);
  const auto facts = parse_scev_report(ir->scev);
  TripAssumptions assume;
  assume.arguments = request.args;
  std::vector<VariantPrediction> out;
  std::vector<std::string> others;
  for (const auto& f : functions) {
    if (!is_cpu_kernel(f, facts)) continue;
    if (!kernel_matches(request.kernel, demangle(f.name), f.name)) {
      others.push_back(demangle(f.name));
      continue;
    }
    VariantPrediction v;
    v.file = file;
    v.variant = demangle(f.name);
    v.arguments = request.args;
    v.counts = cost_module(functions, facts, {f.name}, assume);
    v.toolchain = "clang++ -O3 -march=native LLVM IR + opt scalar evolution";
    v.time = predict_time(v.counts, machine, calibration, runs_in_parallel(*source));
    v.time.notes.push_back(unknown_parameters_note(request));
    out.push_back(std::move(v));
  }
  if (out.empty() && request.kernel.empty())
    return fail("no kernel found in " + file + " (a function of its own with a loop)");
  if (out.empty())
    return fail(fmt::format(
        "no kernel named '{}' in {}{}", request.kernel, file,
        others.empty() ? " (it has no kernel)" : " (it has: " + join(others, "; ") + ")"));
  return out;
}

Json to_json(const VariantPrediction& v) {
  Json loops = Json::array();
  for (const auto& t : v.counts.trips)
    loops.push_back({{"function", t.function},
                     {"loop", t.header},
                     {"depth", t.depth},
                     {"trips", t.trips},
                     {"backedge_count", t.backedge_count},
                     {"assumed", t.assumed}});
  Json doc = {{"format", "kopt-prediction/1"},
              {"loop_trips", loops},
              {"prediction", to_json(v.time)},
              {"counts",
               {{"instructions", v.counts.instructions},
                {"chain_steps", v.counts.chain_steps},
                {"divides", v.counts.divides},
                {"library_calls", std::max(v.counts.special_calls - v.counts.square_roots, 0.0)},
                {"dram_bytes", v.counts.counters.dram_bytes},
                {"fp64_flops", v.counts.counters.fp64_flops},
                {"fp32_flops", v.counts.counters.fp32_flops},
                {"loops", v.counts.loops},
                {"unknown_trip_loops", v.counts.unknown_trip_loops}}},
              {"toolchain", v.toolchain}};
  add_subject(doc, v);
  return doc;
}

void add_subject(Json& doc, const PredictionSubject& s) {
  if (s.file.empty()) {
    doc["benchmark"] = s.benchmark, doc["variant"] = s.variant, doc["size"] = s.size;
    return;
  }
  doc["file"] = s.file, doc["kernel"] = s.variant;
  Json args = Json::array();
  for (const auto& a : s.arguments) args.push_back(a ? Json(*a) : Json(nullptr));
  doc["arguments"] = args;
}

std::string subject_name(const PredictionSubject& s) {
  return s.file.empty() ? fmt::format("{} {} at size {}", s.benchmark, s.variant, s.size)
                        : fmt::format("{} kernel {}", s.file, s.variant);
}

std::string summarize(const VariantPrediction& v) {
  const TimePrediction& t = v.time;
  const std::string what = subject_name(v);
  std::string out = fmt::format("{}: predicted {:.4g} ms a call, {}-bound ({} thread{})\n", what,
                                t.seconds * 1e3, t.bound, t.threads, t.threads == 1 ? "" : "s");
  out += fmt::format(
      "  bounds (ms): issue {:.3g} ({:.3g} instructions), chain {:.3g} ({:.3g} steps), divide "
      "{:.3g} ({:.3g}), memory {:.3g} ({:.3g} MB from {}), math-library calls {:.3g}\n",
      t.terms.issue * 1e3, v.counts.instructions, t.terms.chain * 1e3, v.counts.chain_steps,
      t.terms.divide * 1e3, v.counts.divides, t.terms.memory * 1e3, t.footprint / 1e6,
      t.memory_level, t.terms.special * 1e3);
  if (t.floor_seconds > 0)
    out += fmt::format(
        "  the hardware's floor for this work: {:.3g} ms (its flops at the all-core peak, its "
        "compulsory bytes at full bandwidth); the prediction is {:.1f}x above it\n",
        t.floor_seconds * 1e3, t.seconds / t.floor_seconds);
  for (const auto& note : t.notes) out += "  note: " + note + "\n";
  return out;
}

}  // namespace kopt
