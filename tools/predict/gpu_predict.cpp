#include "tools/predict/gpu_predict.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tools/predict/gpu_calibration.h"
#include "tools/predict/gpu_trace.h"
#include "tools/roofline/ptx_cost.h"
#include "tools/roofline/source_compile.h"
#include "tools/roofline/static_ptx.h"

namespace kopt {

namespace {

GpuLaunchWork launch_work(const KernelEstimate& e, const LaunchConfig& launch) {
  GpuLaunchWork w;
  w.kernel = e.name;
  w.launch = launch;
  w.fp32_flops = e.counters.fp32_flops;
  w.fp64_flops = e.counters.fp64_flops;
  w.int_ops = e.counters.int_ops;
  w.special_ops = e.special_ops;
  w.dram_bytes = e.counters.dram_bytes;
  w.global_atomics = e.global_atomics;
  return w;
}

void add_note(std::vector<std::string>& notes, const std::string& note) {
  if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

// The PTX model's estimate of one traced launch, with its assumptions about loops and reuse.
Result<KernelEstimate> cost_launch(const std::string& ptx, const TracedLaunch& t) {
  PtxOptions options;
  options.launch = t.launch;
  options.args = t.args;
  options.kernel = t.symbol;
  for (auto& e : cost_ptx_kernels(ptx, options))
    if (e.symbol == t.symbol) return std::move(e);
  return fail("the PTX has no kernel " + t.symbol);
}

// Loop and reuse assumptions; the launch is known, so its line is left out.
void add_assumptions(std::vector<std::string>& notes, const KernelEstimate& e) {
  for (const auto& a : e.assumptions)
    if (a.find("launch") == std::string::npos) add_note(notes, e.name + ": " + a);
}

}  // namespace

Result<GpuTarget> gpu_target(const ExecutionContext& ctx, const std::string& hardware,
                             bool calibrate) {
  const auto identity = gpu_identity(ctx);
  std::string name = hardware;
  if (name.empty() && identity) name = hardware_name_of_gpu(*identity);
  auto spec = find_hardware(name.empty() ? "h100" : name);
  if (!spec) return spec.error();
  GpuTarget target;
  target.gpu = *spec;
  target.calibration = "uncalibrated defaults";
  if (!calibrate || !identity) return target;
  auto measured = gpu_calibration(ctx);
  if (!measured) {
    target.calibration =
        "uncalibrated defaults (the GPU sweep failed: " + measured.error().message + ")";
  } else if (measured->hardware != spec->name) {
    target.calibration = "uncalibrated defaults (this machine's calibration is of the " +
                         measured->hardware + ", not the " + spec->name + ")";
  } else {
    target.efficiency = measured->efficiency;
    target.calibrated = true;
    target.calibration = "calibrated on " + measured->gpu + " at " + measured->measured_at;
  }
  return target;
}

Result<GpuVariantPrediction> predict_gpu_variant(const ExecutionContext& ctx,
                                                 const Benchmark& bench, const std::string& variant,
                                                 const std::string& source, long size,
                                                 const GpuTarget& target) {
  auto ptx = compile_benchmark_ptx(ctx, bench, source);
  if (!ptx) return ptx.error();
  auto launches = trace_launches(ctx, bench, source, size, *ptx, target.gpu);
  if (!launches) return launches.error();
  std::vector<GpuLaunchWork> work;
  std::vector<std::string> notes;
  for (const auto& t : *launches) {
    auto e = cost_launch(*ptx, t);
    if (!e) return e.error();
    work.push_back(launch_work(*e, t.launch));
    add_assumptions(notes, *e);
  }
  GpuVariantPrediction out;
  out.benchmark = bench.name;
  out.variant = variant;
  out.size = size > 0 ? size : bench.time_size;
  out.calibration = target.calibration;
  out.time = predict_gpu_call(work, target.gpu, target.efficiency, target.calibrated);
  out.time.notes.push_back(
      "launches found by running the call's host code against kopt's stand-in CUDA runtime; "
      "occupancy queries answered from the block size alone (2048 threads, 32 blocks an SM)");
  for (auto& n : notes) out.time.notes.push_back(std::move(n));
  return out;
}

Result<std::vector<GpuVariantPrediction>> predict_gpu_file(const ExecutionContext& ctx,
                                                           const GpuFileRequest& request,
                                                           const GpuTarget& target) {
  const std::string file = request.source.path.string();
  if (!request.launch.given())
    return fail("the time of a CUDA kernel depends on its grid: give --launch GRID,BLOCK");
  auto ptx = compile_ptx(ctx, request.source);
  if (!ptx) return ptx.error();
  PtxOptions options;
  options.launch = request.launch;
  options.args = request.args;
  options.kernel = request.kernel;
  std::vector<GpuVariantPrediction> out;
  for (const auto& e : cost_ptx_kernels(*ptx, options)) {
    GpuVariantPrediction v;
    v.file = file;
    v.variant = e.name;
    v.arguments = request.args;
    v.calibration = target.calibration;
    v.time = predict_gpu_call({launch_work(e, request.launch)}, target.gpu, target.efficiency,
                              target.calibrated);
    for (const auto& a : e.assumptions) v.time.notes.push_back(a);
    out.push_back(std::move(v));
  }
  if (out.empty())
    return fail(request.kernel.empty() ? "no kernel found in " + file
                                       : "no kernel named '" + request.kernel + "' in " + file);
  return out;
}

Json to_json(const GpuVariantPrediction& v) {
  Json doc = {{"format", "kopt-prediction/1"},
              {"device", "gpu"},
              {"prediction", to_json(v.time)},
              {"calibration", v.calibration},
              {"toolchain", "nvcc -ptx -O3 (compute_80), PTX model per launch"}};
  add_subject(doc, v);
  return doc;
}

std::string summarize(const GpuVariantPrediction& v) {
  const std::string what = subject_name(v);
  return fmt::format("{}: predicted {:.4g} ms a call on the {}, {}-bound\n", what,
                     v.time.seconds * 1e3, v.time.hardware, v.time.bound) +
         summarize_gpu(v.time);
}

}  // namespace kopt
