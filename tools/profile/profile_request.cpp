#include "tools/profile/profile_request.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "tools/eval/build.h"
#include "tools/profile/gpu_profile.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

ProfileOutcome failed(const std::string& why, Json data = Json::object()) {
  ProfileOutcome outcome;
  outcome.failure = why;
  outcome.text = "profile failed: " + why;
  outcome.data = std::move(data);
  outcome.data["error"] = why;
  return outcome;
}

ProfileOutcome profile_cuda(EvaluationExecutor& executor, const ExecutionContext& ctx,
                            const Benchmark& bench, const std::string& source,
                            const CpuProfileOptions& options, int top_lines) {
  BuildOutcome build = executor.build(bench, source);
  if (!build.ok) return failed("the variant does not build: " + build.failure);
  GpuProfileOptions gpu;
  gpu.size = options.size;
  gpu.seed = options.seed;
  gpu.kernel_source = source;
  gpu.top_lines = top_lines;
  GpuProfile profile = profile_gpu(ctx, bench, build.binary, gpu);
  if (!profile.ok()) return failed(profile.category + ": " + profile.failure, to_json(profile));
  ProfileOutcome outcome;
  outcome.ok = true;
  outcome.text = profile.summary;
  outcome.data = to_json(profile);
  return outcome;
}

}  // namespace

ProfileOutcome profile_variant(EvaluationExecutor& executor, const ExecutionContext& ctx,
                               const Benchmark& bench, const std::string& source,
                               const std::string& label, const CpuProfileOptions& options,
                               int top_lines) {
  // A profile loads the CPUs: beside other kopts' work, never during their timing.
  const TimingLease work("kopt: profiling " + bench.name, -1, LeaseKind::work);
  if (bench.language == Language::cuda)
    return profile_cuda(executor, ctx, bench, source, options, top_lines);
  auto run = profile_cpu(executor, ctx, bench, source, options);
  if (!run) return failed(run.error().message);
  ProfileOutcome outcome;
  outcome.ok = true;
  outcome.text = summarize(run->profile, fmt::format("{} ({})", bench.name, label), top_lines);
  outcome.data = to_json(run->profile);
  outcome.data["benchmark"] = bench.name;
  outcome.data["variant"] = label;
  if (run->overhead) {
    outcome.data["overhead"] = to_json(*run->overhead);
    outcome.text +=
        fmt::format("perf overhead: {:+.1f}% per call ({:.4g} ms profiled vs {:.4g} ms)\n",
                    100 * run->overhead->fraction(), run->overhead->profiled_seconds * 1e3,
                    run->overhead->plain_seconds * 1e3);
  }
  return outcome;
}

}  // namespace kopt
