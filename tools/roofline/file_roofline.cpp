#include "tools/roofline/file_roofline.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "tools/eval/static_check.h"
#include "tools/roofline/ir_cost_model.h"
#include "tools/roofline/ptx_cost.h"
#include "util/strings.h"

namespace kopt {

namespace {

KernelRoofline from_ptx(const KernelEstimate& e, const Peaks& peaks) {
  KernelRoofline k;
  k.name = e.name, k.symbol = e.symbol, k.counters = e.counters;
  k.executed_bytes = e.executed_bytes;
  k.global_traffic = e.executed_bytes > 0;
  k.external_calls = e.calls_not_inlined;
  k.point = place(e.counters, peaks);
  for (const auto& loop : e.loops) k.loops.push_back({"", loop.trips, loop.known, loop.bound});
  k.assumptions = e.assumptions;
  return k;
}

Result<FileRoofline> cuda_file(const ExecutionContext& ctx, const FileRooflineRequest& request,
                               FileRoofline report) {
  auto ptx = compile_ptx(ctx, request.source);
  if (!ptx) return ptx.error();
  report.toolchain = "nvcc -ptx -O3 (" + request.source.gpu_arch + ")";
  PtxOptions options{request.launch, request.args, PtxOptions{}.default_trips, request.kernel};
  for (const auto& e : cost_ptx_kernels(*ptx, options))
    report.kernels.push_back(from_ptx(e, report.peaks));
  if (report.kernels.empty() && !request.kernel.empty()) {
    options.kernel.clear();
    for (const auto& e : cost_ptx_kernels(*ptx, options)) report.other_kernels.push_back(e.name);
  }
  return report;
}

KernelRoofline from_ir(const IrFunction& f, const StaticCounts& counts, const Peaks& peaks) {
  KernelRoofline k;
  k.name = demangle(f.name), k.symbol = f.name, k.counters = counts.counters;
  k.counters.kernel = k.name;
  k.executed_bytes = counts.executed_bytes;
  k.global_traffic = counts.executed_bytes > 0;
  k.point = place(k.counters, peaks);
  int assumed = 0;
  for (const auto& t : counts.trips) {
    k.loops.push_back(
        {demangle(t.function) + " " + t.header, t.trips, !t.assumed, t.backedge_count});
    assumed += t.assumed;
  }
  k.assumptions.push_back(fmt::format(
      "{} of {} loops with a known trip count{}", counts.trips.size() - assumed,
      counts.trips.size(), assumed ? "; the others assumed (--args gives parameters)" : ""));
  k.assumptions.push_back(
      "reuse assumed: each array moves its compulsory footprint (the range its addresses span), "
      "so loops over data that fits in the caches cost it once");
  for (const auto& n : counts.notes) k.assumptions.push_back(n);
  return k;
}

Result<FileRoofline> cpu_file(const ExecutionContext& ctx, const FileRooflineRequest& request,
                              FileRoofline report) {
  auto out = compile_ir(ctx, request.source);
  if (!out) return out.error();
  report.toolchain = "clang++ -O2 scalar LLVM IR + opt scalar evolution";
  const auto functions = parse_llvm_ir(out->ir);
  const auto facts = parse_scev_report(out->scev);
  TripAssumptions assume;
  assume.arguments = request.args;
  for (const auto& f : functions) {
    if (!is_cpu_kernel(f, facts)) continue;
    if (!kernel_matches(request.kernel, demangle(f.name), f.name)) {
      report.other_kernels.push_back(demangle(f.name));
      continue;
    }
    report.kernels.push_back(
        from_ir(f, cost_module(functions, facts, {f.name}, assume), report.peaks));
  }
  return report;
}

std::string intensity_row(const char* kind, double ai, double balance) {
  return fmt::format("    {:<5} intensity {:>9.3g} op/byte, balance {:>7.3g} ({})\n", kind, ai,
                     balance, ai >= balance ? "above: compute side" : "below");
}

}  // namespace

bool is_cpu_kernel(const IrFunction& f, const std::map<std::string, ScevFacts>& facts) {
  if (f.name == "main" || starts_with(f.name, "_GLOBAL") || starts_with(f.name, "__cxx") ||
      starts_with(f.name, ".omp") || starts_with(f.name, "_ZNSt") || starts_with(f.name, "_ZSt"))
    return false;
  auto it = facts.find(f.name);
  return it != facts.end() && !it->second.loops.empty();
}

Result<FileRoofline> roofline_of_file(const ExecutionContext& ctx,
                                      const FileRooflineRequest& request, const Peaks& peaks,
                                      const std::string& hardware) {
  FileRoofline report;
  report.file = request.source.path.string();
  report.hardware = hardware;
  report.peaks = peaks;
  return is_cuda_file(request.source.path) ? cuda_file(ctx, request, report)
                                           : cpu_file(ctx, request, report);
}

std::string missing_kernel_message(const FileRoofline& r, const FileRooflineRequest& request) {
  if (!r.kernels.empty()) return {};
  if (request.kernel.empty()) return "no kernel found in " + r.file;
  return fmt::format("no kernel named '{}' in {}{}", request.kernel, r.file,
                     r.other_kernels.empty() ? " (it has no kernel)"
                                             : " (it has: " + join(r.other_kernels, "; ") + ")");
}

std::string no_class_statement(const KernelRoofline& k) {
  if (k.global_traffic) return {};
  if (k.external_calls)
    return fmt::format(
        "its own code moves no global memory and its work is in {} call(s) to functions "
        "compiled in other files, which are not counted: no class (analyse the file that "
        "defines them, or compile them into this one)",
        k.external_calls);
  return "no global memory traffic: it works in registers, shared or constant memory only, so "
         "it has no arithmetic intensity (not bandwidth-bound)";
}

std::string summarize(const FileRoofline& r) {
  std::string text =
      fmt::format("static roofline of {} on {} ({})\n", r.file, r.hardware, r.toolchain);
  for (const auto& k : r.kernels) {
    const RooflinePoint& p = k.point;
    text += "  kernel " + k.name + ": ";
    if (const std::string why = no_class_statement(k); !why.empty()) {
      text += why + "\n";
    } else {
      text += to_string(p.by_intensity) + "\n";
      text += intensity_row("fp64", p.intensity.fp64, p.balance.fp64);
      text += intensity_row("fp32", p.intensity.fp32, p.balance.fp32);
      text += intensity_row("int", p.intensity.int_ops, p.balance.int_ops);
    }
    text += fmt::format(
        "    counts: {:.3g} fp32, {:.3g} fp64, {:.3g} int ops; {:.3g} DRAM bytes of "
        "{:.3g} executed\n",
        k.counters.fp32_flops, k.counters.fp64_flops, k.counters.int_ops, k.counters.dram_bytes,
        k.executed_bytes);
    for (const auto& a : k.assumptions) text += "    assumed: " + a + "\n";
  }
  return text;
}

Json to_json(const FileRoofline& r) {
  Json kernels = Json::array();
  for (const auto& k : r.kernels) {
    Json loops = Json::array();
    for (const auto& l : k.loops)
      loops.push_back(
          {{"where", l.where}, {"trips", l.trips}, {"known", l.known}, {"bound", l.bound}});
    Json j = {{"kernel", k.name},
              {"symbol", k.symbol},
              {"counters", to_json(k.counters)},
              {"executed_bytes", k.executed_bytes},
              {"loops", loops},
              {"assumptions", k.assumptions}};
    if (const std::string why = no_class_statement(k); why.empty()) {
      j["class"] = to_string(k.point.by_intensity);
      j["point"] = to_json(k.point);
    } else {
      j["class"] = k.external_calls ? "unknown" : "no-global-traffic";
      j["statement"] = why;
    }
    kernels.push_back(j);
  }
  return {{"format", "kopt-roofline-file/1"},
          {"file", r.file},
          {"hardware", r.hardware},
          {"method", "static"},
          {"toolchain", r.toolchain},
          {"peaks", to_json(r.peaks)},
          {"kernels", kernels}};
}

}  // namespace kopt
