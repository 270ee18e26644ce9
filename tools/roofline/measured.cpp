#include "tools/roofline/measured.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "tools/benchmark/expression.h"
#include "tools/eval/driver_run.h"
#include "tools/eval/stats.h"
#include "tools/profile/gpu_format.h"
#include "tools/profile/gpu_profile.h"
#include "util/files.h"

namespace kopt {

namespace {

bool single_precision(const Benchmark& bench) {
  auto header = read_file(bench.header_path());
  if (!header) return false;
  return header->find("float") != std::string::npos && header->find("double") == std::string::npos;
}

Result<DriverRun> timed_run(const ExecutionContext& ctx, const Benchmark& bench,
                            const std::filesystem::path& binary, long size, int reps) {
  DriverRequest request;
  request.mode = "time";
  request.size = size;
  request.seeds = {1};
  request.warmup = 1;
  request.reps = reps;
  request.timeout = std::chrono::seconds(300);
  request.memory_bytes = default_memory_limit();
  DriverRun run = run_driver(ctx, bench, binary, request);
  if (!run.failure.empty()) return fail("the timed run failed: " + run.failure);
  if (run.samples.empty()) return fail("the timed run reported no samples");
  return run;
}

}  // namespace

Result<KernelCounters> manifest_work(const Benchmark& bench, long size) {
  auto flops = bench.work_at(bench.flops, size);
  auto bytes = bench.work_at(bench.bytes, size);
  if (!flops) return fail("the manifest's flops: " + flops.error().message);
  if (!bytes) return fail("the manifest's bytes: " + bytes.error().message);
  KernelCounters c;
  c.kernel = bench.functions.empty() ? bench.name : bench.functions.front();
  (single_precision(bench) ? c.fp32_flops : c.fp64_flops) = *flops;
  c.dram_bytes = *bytes;
  if (auto manifest = read_json_file(bench.dir / "benchmark.json"); manifest) {
    const Json work = manifest->value("work", Json::object());
    if (work.contains("intops") && work["intops"].is_string())
      if (auto ops = bench.work_at(work["intops"].get<std::string>(), size)) c.int_ops = *ops;
  }
  return c;
}

Result<MeasuredWork> measure_cpu_work(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                      const Benchmark& bench, const std::string& source,
                                      long size) {
  if (size <= 0) size = bench.time_size;
  auto work = manifest_work(bench, size);
  if (!work) return work.error();
  BuildOutcome build = executor.build(bench, source);
  if (!build.ok) return fail("the variant does not build: " + build.failure);
  auto run = timed_run(ctx, bench, build.binary, size, 5);
  if (!run) return run.error();
  double seconds = upper_median(run->samples);
  int reps = static_cast<int>(run->samples.size());
  if (seconds < 0.05) {
    reps = static_cast<int>(std::clamp(std::ceil(0.5 / std::max(seconds, 1e-6)), 5.0, 500.0));
    run = timed_run(ctx, bench, build.binary, size, reps);
    if (!run) return run.error();
    seconds = upper_median(run->samples);
  }
  MeasuredWork measured;
  measured.total = *work;
  measured.total.seconds = seconds;
  measured.reps = reps;
  measured.source_of_work = "manifest";
  return measured;
}

Result<MeasuredWork> measure_gpu_work(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                      const Benchmark& bench, const std::string& source,
                                      long size) {
  BuildOutcome build = executor.build(bench, source);
  if (!build.ok) return fail("the variant does not build: " + build.failure);
  GpuProfileOptions options;
  options.size = size;
  options.kernel_source = source;
  GpuCounters counters = collect_gpu_counters(ctx, bench, build.binary, options);
  if (!counters.ok()) return fail("needs a GPU: " + counters.category + ": " + counters.failure);
  MeasuredWork measured;
  measured.source_of_work = "cupti range profiler";
  measured.reps = options.reps;
  measured.total.kernel = bench.name;
  for (const auto& k : counters.kernels) {
    if (gpu_format::is_harness_kernel(k.kernel)) continue;
    KernelCounters c{k.kernel,       k.duration_ns * 1e-9, k.dram_bytes,
                     k.fp32_flops(), k.fp64_flops(),       k.integer};
    measured.kernels.push_back(c);
    measured.total.seconds += c.seconds, measured.total.dram_bytes += c.dram_bytes;
    measured.total.fp32_flops += c.fp32_flops, measured.total.fp64_flops += c.fp64_flops;
    measured.total.int_ops += c.int_ops;
  }
  if (measured.kernels.empty()) return fail("the GPU run profiled no kernel");
  return measured;
}

}  // namespace kopt
