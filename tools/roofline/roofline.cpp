#include "tools/roofline/roofline.h"

#include <fmt/format.h>

#include "tools/machine/hardware.h"
#include "tools/machine/machine.h"
#include "tools/roofline/measured.h"
#include "tools/roofline/static_cpu.h"
#include "tools/roofline/static_ptx.h"

namespace kopt {

namespace {

std::string host_description(const MachineModel& m) {
  std::string caches;
  for (const auto& c : m.host.caches)
    if (c.type != "Instruction")
      caches += fmt::format("{}L{} {} KiB x {}", caches.empty() ? "" : ", ", c.level, c.bytes >> 10,
                            c.instances);
  return fmt::format(
      "CPU: {}, {} cores, {}-bit SIMD{}; caches {}; measured peaks: {:.1f} GFLOP/s double, {:.1f} "
      "GFLOP/s "
      "single, {:.1f} GOP/s 32-bit integer, {:.1f} GB/s memory bandwidth (STREAM triad)",
      m.host.cpu_model, m.host.cores, m.host.vector_bits, m.host.fma ? " with FMA" : "", caches,
      m.fp64.all_cores / 1e9, m.fp32.all_cores / 1e9, m.int32.all_cores / 1e9,
      m.bandwidth.all_cores / 1e9);
}

std::string gpu_description(const HardwareSpec& s) {
  return fmt::format(
      "GPU: {}; {} SMs at {} GHz; L2 cache {:.0f} MB; peaks: {:.2f} TFLOP/s single, {:.3f} TFLOP/s "
      "double, "
      "{:.2f} TOP/s integer; DRAM bandwidth {:.1f} GB/s",
      s.full_name, s.sm_count, s.clock_ghz, s.l2_bytes / (1 << 20), s.peaks.fp32 / 1e12,
      s.peaks.fp64 / 1e12, s.peaks.int_ops / 1e12, s.peaks.dram_bandwidth / 1e9);
}

const std::string& no_integer_work() {
  static const std::string note =
      "the manifest states no integer work: integer intensity not measured";
  return note;
}

// What the CPU's measured point assumes of the traffic: the manifest's bytes, whatever the
// variant does. A variant that passes over its data more often than they count moves more.
std::string traffic_assumed(const Benchmark& bench) {
  std::string note = "bytes are the manifest's work.bytes (" + bench.bytes +
                     ") for every variant: the traffic of the passes over the data it counts, "
                     "one unless it says more; a variant that makes more passes moves more "
                     "bytes and sits further left than shown";
  if (!bench.footprint.empty() && bench.footprint != bench.bytes)
    note += "; distinct bytes per call (work.footprint) " + bench.footprint;
  return note;
}

Json static_detail(const StaticEstimate& e) {
  Json loops = Json::array();
  for (const auto& t : e.counts.trips)
    loops.push_back({{"function", t.function},
                     {"loop", t.header},
                     {"depth", t.depth},
                     {"trips", t.trips},
                     {"backedge_count", t.backedge_count},
                     {"assumed", t.assumed}});
  Json args = Json::array();
  for (const auto& a : e.assumptions.arguments) args.push_back(a ? Json(*a) : Json());
  return {{"toolchain", e.toolchain},
          {"special_calls", e.counts.special_calls},
          {"executed_bytes", e.counts.executed_bytes},
          {"loops", e.counts.loops},
          {"unknown_trip_loops", e.counts.unknown_trip_loops},
          {"assumed_size", e.assumptions.size},
          {"default_trips", e.assumptions.default_trips},
          {"driver_arguments", args},
          {"notes", e.counts.notes},
          {"loop_trips", loops}};
}

Result<RooflineReport> run_static(const ExecutionContext& ctx, const Benchmark& bench,
                                  const RooflineRequest& request, RooflineReport report) {
  auto estimate = bench.language == Language::cuda
                      ? estimate_ptx(ctx, bench, request.source, request.size)
                      : estimate_cpu(ctx, bench, request.source, request.size);
  if (!estimate) return estimate.error();
  report.counters = estimate->counts.counters;
  report.point = place(report.counters, report.peaks);
  for (const auto& k : estimate->kernels) report.kernels.push_back(place(k, report.peaks));
  report.detail = static_detail(*estimate);
  report.notes = estimate->counts.notes;
  return report;
}

Result<RooflineReport> run_measured(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                    const Benchmark& bench, const RooflineRequest& request,
                                    RooflineReport report) {
  auto work = bench.language == Language::cuda
                  ? measure_gpu_work(executor, ctx, bench, request.source, request.size)
                  : measure_cpu_work(executor, ctx, bench, request.source, request.size);
  if (!work) return work.error();
  report.counters = work->total;
  report.point = place(report.counters, report.peaks);
  for (const auto& k : work->kernels) report.kernels.push_back(place(k, report.peaks));
  report.detail = {{"work_from", work->source_of_work}, {"timed_calls", work->reps}};
  if (bench.language != Language::cuda && report.counters.int_ops == 0)
    report.notes.push_back(no_integer_work());
  if (bench.language != Language::cuda) report.notes.push_back(traffic_assumed(bench));
  if (report.point.bandwidth_fraction > 1)
    report.notes.push_back(fmt::format(
        "{:.0f}% of the measured DRAM bandwidth: the working set ({:.0f} MB per call) is served by "
        "the caches, so the DRAM roof does not bind here",
        100 * report.point.bandwidth_fraction, report.counters.dram_bytes / 1e6));
  return report;
}

}  // namespace

Result<RooflineMachine> roofline_machine(const std::string& hardware, const ExecutionContext& ctx) {
  RooflineMachine machine;
  if (hardware == "host") {
    auto model = host_machine(ctx, MachineOptions{});
    if (!model) return model.error();
    machine.peaks = model->peaks();
    machine.description = host_description(*model);
    return machine;
  }
  auto spec = find_hardware(hardware);
  if (!spec) return spec.error();
  machine.peaks = spec->peaks;
  machine.description = gpu_description(*spec);
  machine.gpu = true;
  return machine;
}

Result<RooflineReport> classify_variant(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                        const Benchmark& bench, const RooflineRequest& request,
                                        const RooflineMachine& machine,
                                        const std::string& hardware) {
  RooflineReport report;
  report.benchmark = bench.name;
  report.variant = request.variant;
  report.method = request.method;
  report.hardware = hardware;
  report.peaks = machine.peaks;
  if (request.method == "static") return run_static(ctx, bench, request, report);
  if (request.method != "measured") return fail("unknown method '" + request.method + "'");
  if (machine.gpu != (bench.language == Language::cuda))
    return fail(fmt::format(
        "the measured method needs {} (use --method static to classify for other hardware)",
        machine.gpu ? "a CUDA benchmark for a GPU" : "--hardware host for a CPU benchmark"));
  return run_measured(executor, ctx, bench, request, report);
}

std::string summarize(const RooflineReport& r) {
  const RooflinePoint& p = r.point;
  std::string text = fmt::format("roofline of {} ({}) on {}, method {}: {}\n", r.benchmark,
                                 r.variant, r.hardware, r.method, to_string(p.cls));
  auto row = [](const char* kind, double ai, double balance) {
    return fmt::format("  {:<6} intensity {:>9.3g} op/byte, balance {:>7.3g} ({})\n", kind, ai,
                       balance, ai >= balance ? "above: compute side" : "below");
  };
  text += row("fp64", p.intensity.fp64, p.balance.fp64);
  text += row("fp32", p.intensity.fp32, p.balance.fp32);
  text += row("int", p.intensity.int_ops, p.balance.int_ops);
  if (p.timed)
    text += fmt::format(
        "  achieved {:.3g} GB/s ({:.1f}% of peak bandwidth), {:.1f}% of peak compute; {}\n",
        p.bandwidth / 1e9, 100 * p.bandwidth_fraction, 100 * p.compute_fraction,
        p.headroom >= 1 ? fmt::format("headroom {:.2g}x to the roof", p.headroom)
                        : std::string("above the roof (see the note)"));
  if (p.cls == BoundClass::latency)
    text +=
        "  latency-bound: bandwidth-bound by intensity, but far below peak bandwidth (dependences, "
        "branches, serial code or too little parallelism limit it)\n";
  for (const auto& k : r.kernels)
    text += fmt::format("  kernel {}: {}\n", k.kernel.substr(0, 60), to_string(k.cls));
  for (const auto& n : r.notes) text += "  note: " + n + "\n";
  return text;
}

Json to_json(const RooflineReport& r) {
  Json kernels = Json::array();
  for (const auto& k : r.kernels) kernels.push_back(to_json(k));
  return {{"format", "kopt-roofline/1"},
          {"benchmark", r.benchmark},
          {"variant", r.variant},
          {"method", r.method},
          {"hardware", r.hardware},
          {"peaks", to_json(r.peaks)},
          {"counters", to_json(r.counters)},
          {"point", to_json(r.point)},
          {"kernels", kernels},
          {"detail", r.detail},
          {"notes", r.notes}};
}

}  // namespace kopt
