#include "tools/predict/gpu_calibration.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/eval/evaluation.h"
#include "tools/eval/toolchain.h"
#include "tools/roofline/ptx_cost.h"
#include "tools/roofline/source_compile.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/timing_lease.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr const char* kGpuFormat = "kopt-gpu-calibration/1";
constexpr const char* kSweepSource = "gpu_calibration_kernels.cu";

// A sweep kernel at its launch: blocks are this many per SM, each kernel runs ~1-15 ms on an
// H100 (the stream moves 3.2 GB, the others 8-16 k steps of eight chains a thread).
struct GpuSweepKernel {
  const char* name;
  int blocks_per_sm;
  long n, iters;
};
constexpr GpuSweepKernel kGpuSweep[] = {{"kg_stream", 8, 1L << 28, 0},
                                        {"kg_fma32", 8, 0, 16384},
                                        {"kg_fma64", 8, 0, 8192},
                                        {"kg_int", 8, 0, 8192},
                                        {"kg_atomic", 8, 1L << 26, 0}};
constexpr int kThreads = 256;

// The kernel's scalar arguments by position, as the probe passes them.
std::vector<std::optional<double>> sweep_args(const GpuSweepKernel& k) {
  const std::string name = k.name;
  if (name == "kg_stream") return {std::nullopt, std::nullopt, std::nullopt, 0.5, k.n / 4.0};
  if (name == "kg_atomic") return {std::nullopt, std::nullopt, static_cast<double>(k.n)};
  return {std::nullopt, 1.0, static_cast<double>(k.iters)};
}

GpuSweepPoint count_point(const std::string& ptx, const GpuSweepKernel& k, int sms) {
  PtxOptions options;
  options.launch.grid = {static_cast<double>(sms * k.blocks_per_sm), 1, 1};
  options.launch.block = {kThreads, 1, 1};
  options.args = sweep_args(k);
  options.kernel = k.name;
  GpuSweepPoint p;
  for (const auto& e : cost_ptx_kernels(ptx, options)) {
    if (e.symbol != k.name) continue;
    p.fp32_flops = e.counters.fp32_flops, p.fp64_flops = e.counters.fp64_flops;
    p.int_ops = e.counters.int_ops, p.dram_bytes = e.counters.dram_bytes;
    p.global_atomics = e.global_atomics;
  }
  return p;
}

double rate_share(double work, double seconds, double peak) {
  return work > 0 && seconds > 0 && peak > 0 ? work / seconds / peak : 0.0;
}

// Runs the built probe with `args` in the sandbox, with the GPU's device files.
Result<Json> run_probe(const ExecutionContext& ctx, const fs::path& ws,
                       const std::vector<std::string>& args) {
  ProcessSpec spec;
  spec.argv = {"./probe"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = ws;
  spec.env = ctx.run_env;
  spec.timeout = std::chrono::seconds(60);
  SandboxPolicy policy = ctx.policy;
  policy.limits = candidate_limits(0, 240);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/dev", ec))
    if (starts_with(entry.path().filename().string(), "nvidia"))
      policy.devices.push_back(entry.path());
  const ProcessResult r = ctx.runner->run(confine(spec, ws, policy));
  if (!r.succeeded())
    return fail("the GPU calibration probe failed (" + r.describe() +
                "): " + trim(tail(r.output, 400)));
  const auto brace = r.output.rfind('{');
  if (brace == std::string::npos) return fail("the GPU calibration probe printed no result");
  return parse_json(r.output.substr(brace), "the GPU calibration probe's output");
}

Result<std::string> build_sweep(const ExecutionContext& ctx, const fs::path& ws,
                                const std::string& source) {
  if (auto st = write_file(ws / kSweepSource, source); !st) return st.error();
  share_workspace(ws, ctx.policy);
  const std::string arch = detect_cuda_arch(*ctx.runner);
  for (std::vector<std::string> argv :
       {std::vector<std::string>{"/usr/local/cuda/bin/nvcc", "-O3",
                                 "-arch=" + (arch.empty() ? std::string("sm_90") : arch),
                                 kSweepSource, "-o", "probe"},
        {"/usr/local/cuda/bin/nvcc", "-ptx", "-O3", "-arch=compute_80", kSweepSource, "-o",
         "sweep.ptx"}}) {
    const ProcessResult r = run_build_tool(ctx, ws, argv, 300);
    if (r.spawn_failed || r.exit_code == 127) return fail("nvcc not found");
    if (!r.succeeded()) return fail("the GPU sweep does not compile: " + first_error(r.output));
  }
  return read_file(ws / "sweep.ptx");
}

Result<std::map<std::string, GpuSweepPoint>> measure_sweep(const ExecutionContext& ctx,
                                                           const fs::path& ws,
                                                           const std::string& ptx, int sms) {
  std::map<std::string, GpuSweepPoint> points;
  const TimingLease lease("kopt machine --gpu: calibration", TimingLease::visible_gpu());
  for (const auto& k : kGpuSweep) {
    auto doc = run_probe(ctx, ws,
                         {k.name, std::to_string(sms * k.blocks_per_sm), std::to_string(kThreads),
                          std::to_string(k.n), std::to_string(k.iters)});
    if (!doc) return doc.error();
    points[k.name] = count_point(ptx, k, sms);
    points[k.name].seconds = doc->value("seconds", 0.0);
  }
  for (int count : {1, 100}) {
    auto doc = run_probe(ctx, ws, {"launches", std::to_string(count)});
    if (!doc) return doc.error();
    points["launch_" + std::to_string(count)].seconds = doc->value("seconds", 0.0);
  }
  return points;
}

Json sweep_json(const std::map<std::string, GpuSweepPoint>& points) {
  Json out = Json::object();
  for (const auto& [name, p] : points)
    out[name] = {{"seconds", p.seconds},       {"fp32_flops", p.fp32_flops},
                 {"fp64_flops", p.fp64_flops}, {"int_ops", p.int_ops},
                 {"dram_bytes", p.dram_bytes}, {"global_atomics", p.global_atomics}};
  return out;
}

// Which kopt measured it: an efficiency is counted work (the PTX model's) over measured time
// over the hardware table's peak, so a kopt whose model or table changed must measure again
// (the sweep takes seconds). Its executable's size and time stand for both.
std::string kopt_build_stamp() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "unknown";
  const auto size = fs::file_size(self, ec);
  const auto time = fs::last_write_time(self, ec).time_since_epoch().count();
  return ec ? "unknown" : std::to_string(size) + "@" + std::to_string(time);
}

fs::path cache_path(const ExecutionContext& ctx, const std::string& identity,
                    const std::string& source) {
  Hasher hasher;
  hasher.add(kGpuFormat).add(identity).add(source).add(kopt_build_stamp());
  return ctx.cache_root / "predict" / ("gpu-" + hasher.hex() + ".json");
}

}  // namespace

Status check_gpu_efficiency(const GpuEfficiency& e) {
  for (const auto& [name, share] :
       {std::pair{"DRAM", e.memory}, {"FP32", e.fp32}, {"FP64", e.fp64}, {"integer", e.int_ops}})
    if (!(share > 0 && share <= kMostGpuEfficiency))
      return fail(fmt::format(
          "the GPU calibration's {} efficiency is {:.3g}, outside (0, {}] of the hardware "
          "table's peak: the sweep's counts or the table entry are wrong",
          name, share, kMostGpuEfficiency));
  if (!(e.atomics_per_second > 0 && e.atomics_per_second <= 1e14))
    return fail(
        fmt::format("the GPU calibration's {:.3g} contended atomics a second is outside "
                    "(0, 1e14]",
                    e.atomics_per_second));
  for (const auto& [name, seconds] :
       {std::pair{"first", e.first_launch_seconds}, {"each further", e.next_launch_seconds}})
    if (!(seconds >= 0 && seconds <= 0.1))
      return fail(fmt::format("the GPU calibration's {} launch takes {:.3g} s, outside [0, 0.1] s",
                              name, seconds));
  return {};
}

Result<GpuEfficiency> fit_gpu_efficiency(const std::map<std::string, GpuSweepPoint>& points,
                                         const HardwareSpec& gpu) {
  for (const char* name :
       {"kg_stream", "kg_fma32", "kg_fma64", "kg_int", "kg_atomic", "launch_1", "launch_100"})
    if (!points.contains(name) || !(points.at(name).seconds > 0))
      return fail(std::string("the GPU sweep has no time for ") + name);
  GpuEfficiency e;
  const auto& p = points;
  e.memory =
      rate_share(p.at("kg_stream").dram_bytes, p.at("kg_stream").seconds, gpu.peaks.dram_bandwidth);
  e.fp32 = rate_share(p.at("kg_fma32").fp32_flops, p.at("kg_fma32").seconds, gpu.peaks.fp32);
  e.fp64 = rate_share(p.at("kg_fma64").fp64_flops, p.at("kg_fma64").seconds, gpu.peaks.fp64);
  e.int_ops = rate_share(p.at("kg_int").int_ops, p.at("kg_int").seconds, gpu.peaks.int_ops);
  e.atomics_per_second = rate_share(p.at("kg_atomic").global_atomics, p.at("kg_atomic").seconds, 1);
  e.first_launch_seconds = p.at("launch_1").seconds;
  e.next_launch_seconds =
      std::max((p.at("launch_100").seconds - p.at("launch_1").seconds) / 99, 0.0);
  for (const auto& [name, value] : {std::pair{"kg_stream", e.memory},
                                    {"kg_fma32", e.fp32},
                                    {"kg_fma64", e.fp64},
                                    {"kg_int", e.int_ops},
                                    {"kg_atomic", e.atomics_per_second}})
    if (!(value > 0))
      return fail(std::string("the PTX model counts no work in the GPU sweep's ") + name);
  if (auto st = check_gpu_efficiency(e); !st) return st.error();
  return e;
}

std::string hardware_name_of_gpu(const std::string& identity) {
  const std::string name = to_lower(identity);
  for (const char* known : {"h200", "h100", "a100", "3080"})
    if (name.find(known) != std::string::npos) return known;
  return {};
}

Result<std::string> gpu_identity(const ExecutionContext& ctx) {
  if (!gpu_present()) return fail("no NVIDIA GPU here (no /dev/nvidiactl or /dev/nvidia0)");
  const std::string smi = find_executable("nvidia-smi", {"/usr/bin", "/usr/local/bin", "/bin"});
  if (smi.empty()) return fail("no nvidia-smi here to name the GPU");
  ProcessSpec spec;
  spec.argv = {smi, "--query-gpu=name,driver_version", "--format=csv,noheader"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.timeout = std::chrono::seconds(20);
  const ProcessResult r = ctx.runner->run(spec);
  const std::string line = trim(r.output.substr(0, r.output.find('\n')));
  if (!r.succeeded() || line.empty()) return fail("nvidia-smi names no GPU: " + trim(r.output));
  return line;
}

Result<GpuCalibration> gpu_calibration(const ExecutionContext& ctx, bool refresh) {
  auto identity = gpu_identity(ctx);
  if (!identity) return identity.error();
  auto spec = find_hardware(hardware_name_of_gpu(*identity));
  if (!spec) return fail("the GPU " + *identity + " is not in the hardware table");
  auto source = read_file(kopt_home() / "tools" / "predict" / kSweepSource);
  if (!source) return source.error();
  const fs::path path = cache_path(ctx, *identity, *source);
  if (!refresh)
    if (auto doc = read_json_file(path))
      if (auto cached = gpu_calibration_from_json(*doc)) {
        cached->cached = true;
        return cached;
      }
  TempDir ws("gpu-calibration-", ctx.work_root);
  auto ptx = build_sweep(ctx, ws.path(), *source);
  if (!ptx) return ptx.error();
  auto info = run_probe(ctx, ws.path(), {"info"});
  if (!info) return info.error();
  auto points = measure_sweep(ctx, ws.path(), *ptx, info->value("sms", spec->sm_count));
  if (!points) return points.error();
  auto efficiency = fit_gpu_efficiency(*points, *spec);
  if (!efficiency) return efficiency.error();
  GpuCalibration c;
  c.efficiency = *efficiency;
  c.gpu = *identity;
  c.hardware = spec->name;
  c.measured_at = now_iso8601();
  c.key = path.stem().string();
  c.sweep = sweep_json(*points);
  if (auto st = write_json_file(path, to_json(c)); !st) return st.error();
  return c;
}

std::optional<GpuCalibration> cached_gpu_calibration(const ExecutionContext& ctx) {
  auto identity = gpu_identity(ctx);
  auto source = read_file(kopt_home() / "tools" / "predict" / kSweepSource);
  if (!identity || !source) return std::nullopt;
  auto doc = read_json_file(cache_path(ctx, *identity, *source));
  if (!doc) return std::nullopt;
  auto c = gpu_calibration_from_json(*doc);
  if (!c) return std::nullopt;
  c->cached = true;
  return *c;
}

Json to_json(const GpuCalibration& c) {
  const GpuEfficiency& e = c.efficiency;
  return {{"format", kGpuFormat},
          {"gpu", c.gpu},
          {"hardware", c.hardware},
          {"memory_efficiency", e.memory},
          {"fp32_efficiency", e.fp32},
          {"fp64_efficiency", e.fp64},
          {"int_efficiency", e.int_ops},
          {"atomics_per_second", e.atomics_per_second},
          {"first_launch_seconds", e.first_launch_seconds},
          {"next_launch_seconds", e.next_launch_seconds},
          {"sweep", c.sweep},
          {"key", c.key},
          {"measured_at", c.measured_at}};
}

Result<GpuCalibration> gpu_calibration_from_json(const Json& doc) {
  if (json_text(doc, "format") != kGpuFormat) return fail("not a kopt-gpu-calibration/1 document");
  GpuCalibration c;
  GpuEfficiency& e = c.efficiency;
  e.memory = json_number(doc, "memory_efficiency", 0);
  e.fp32 = json_number(doc, "fp32_efficiency", 0);
  e.fp64 = json_number(doc, "fp64_efficiency", 0);
  e.int_ops = json_number(doc, "int_efficiency", 0);
  e.atomics_per_second = json_number(doc, "atomics_per_second", 0);
  e.first_launch_seconds = json_number(doc, "first_launch_seconds", -1);
  e.next_launch_seconds = json_number(doc, "next_launch_seconds", -1);
  if (auto st = check_gpu_efficiency(e); !st) return st.error();
  c.gpu = json_text(doc, "gpu", "");
  c.hardware = json_text(doc, "hardware", "");
  c.measured_at = json_text(doc, "measured_at", "");
  c.key = json_text(doc, "key", "");
  c.sweep = json_member(doc, "sweep").is_object() ? json_member(doc, "sweep") : Json::object();
  return c;
}

std::string describe(const GpuCalibration& c) {
  const GpuEfficiency& e = c.efficiency;
  return fmt::format(
      "GPU time model for {} ({} of the hardware table), measured {}{}:\n"
      "  DRAM {:.0f}%, FP32 {:.0f}%, FP64 {:.0f}%, int {:.0f}% of the table's peaks; {:.3g} "
      "contended global atomics/s; a call of one launch {:.2f} us, each further launch {:.2f} "
      "us\n",
      c.gpu, c.hardware, c.measured_at, c.cached ? " (cached)" : "", 100 * e.memory, 100 * e.fp32,
      100 * e.fp64, 100 * e.int_ops, e.atomics_per_second, e.first_launch_seconds * 1e6,
      e.next_launch_seconds * 1e6);
}

}  // namespace kopt
