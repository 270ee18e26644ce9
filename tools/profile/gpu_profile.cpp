#include "tools/profile/gpu_profile.h"

#include <unistd.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/eval/driver_run.h"
#include "tools/eval/toolchain.h"
#include "tools/profile/gpu_format.h"
#include "util/files.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLibraryName = "libkopt_cupti_inject.so";

// One run of the driver under the injection library, and the folder it wrote into.
struct InjectionRun {
  std::unique_ptr<TempDir> out;
  DriverRun run;
  std::string category;
  std::string failure;
};

std::string check_setup(const Benchmark& bench, const fs::path& library) {
  if (bench.language != Language::cuda)
    return bench.name + " is a " + to_string(bench.language) +
           " benchmark; GPU profiling applies to CUDA benchmarks";
  if (library.empty() || !fs::exists(library))
    return "the CUPTI injection library (" + std::string(kLibraryName) +
           ") is missing: kopt was built without CUPTI (see docs/gpu-profiling.md)";
  return {};
}

// The driver's sandbox sees the library read-only and may write only its workspace and the
// output folder (bound read-write through the policy's device list, the sandbox's one
// read-write bind besides the workspace).
ExecutionContext injected_context(const ExecutionContext& ctx, const fs::path& library,
                                  const fs::path& out, const std::string& mode,
                                  const GpuProfileOptions& options) {
  ExecutionContext run_ctx = ctx;
  run_ctx.run_env[gpu_format::kInjectionVariable] = library.string();
  run_ctx.run_env[gpu_format::kOutVariable] = out.string();
  run_ctx.run_env[gpu_format::kModeVariable] = mode;
  if (options.sampling_period > 0)
    run_ctx.run_env[gpu_format::kSamplingPeriodVariable] = std::to_string(options.sampling_period);
  run_ctx.policy.read_only.push_back(library.parent_path());
  run_ctx.policy.devices.push_back(out);
  return run_ctx;
}

InjectionRun run_injected(const ExecutionContext& ctx, const Benchmark& bench,
                          const fs::path& binary, const GpuProfileOptions& options,
                          const std::string& mode) {
  InjectionRun injected;
  std::error_code ec;
  fs::path library = options.injection_library.empty()
                         ? find_injection_library()
                         : fs::absolute(options.injection_library, ec);
  if (std::string problem = check_setup(bench, library); !problem.empty()) {
    injected.category = "setup";
    injected.failure = problem;
    return injected;
  }
  if (options.require_gpu && !gpu_present()) {
    injected.category = "no-gpu";
    injected.failure = "no NVIDIA GPU on this machine (no /dev/nvidiactl): GPU profiling needs one";
    return injected;
  }
  injected.out = std::make_unique<TempDir>("cupti-", ctx.work_root);
  share_workspace(injected.out->path(), ctx.policy);
  DriverRequest request;
  request.mode = "run";
  request.size = options.size > 0 ? options.size : bench.time_size;
  request.seeds = {options.seed};
  request.warmup = options.warmup;
  request.reps = options.reps;
  request.timeout = options.timeout;
  injected.run = run_driver(injected_context(ctx, library, injected.out->path(), mode, options),
                            bench, binary, request);
  if (auto error = read_cupti_error(injected.out->path())) {
    injected.category = error->reason;
    injected.failure = "CUPTI: " + error->message;
  } else if (!injected.run.failure.empty()) {
    injected.category = injected.run.category;
    injected.failure = injected.run.failure;
  }
  if (!options.keep_raw.empty()) {
    fs::create_directories(options.keep_raw, ec);
    fs::copy(injected.out->path(), options.keep_raw,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  }
  return injected;
}

SourceFiles sources_of(const Benchmark& bench, const std::string& kernel_source) {
  SourceFiles sources;
  for (const auto& file : fixed_build_files(bench))
    if (auto text = read_file(file)) sources.by_name[file.filename().string()] = *text;
  if (!kernel_source.empty()) {
    sources.by_name[workspace_kernel_name(bench)] = kernel_source;
  } else if (auto original = read_file(bench.kernel_path())) {
    sources.by_name[workspace_kernel_name(bench)] = *original;
  }
  return sources;
}

}  // namespace

fs::path find_injection_library() {
  if (const char* chosen = std::getenv("KOPT_CUPTI_INJECT"); chosen && *chosen) return chosen;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path beside = self.parent_path() / kLibraryName;
  return fs::exists(beside, ec) ? beside : fs::path();
}

GpuProfile profile_gpu(const ExecutionContext& ctx, const Benchmark& bench, const fs::path& binary,
                       const GpuProfileOptions& options) {
  GpuProfile profile;
  InjectionRun injected = run_injected(ctx, bench, binary, options, gpu_format::kModePcSampling);
  profile.seconds = injected.run.process.wall_seconds;
  if (!injected.category.empty()) {
    profile.category = injected.category;
    profile.failure = injected.failure;
    return profile;
  }
  auto samples = read_pc_sampling(injected.out->path());
  if (!samples) {
    profile.category = "no-samples";
    profile.failure = samples.error().message;
    return profile;
  }
  profile.samples = std::move(*samples);
  std::unique_ptr<SassLineMapper> owned;
  SassLineMapper* mapper = options.line_mapper;
  if (mapper == nullptr) {
    auto found = default_line_mapper(*ctx.runner);
    if (!found) {
      profile.category = "setup";
      profile.failure = "cannot map PCs to source lines: " + found.error().message;
      return profile;
    }
    owned = std::move(*found);
    mapper = owned.get();
  }
  profile.attribution =
      attribute(profile.samples, *mapper, sources_of(bench, options.kernel_source));
  profile.summary = summarize(profile.attribution, options.top_lines);
  return profile;
}

GpuCounters collect_gpu_counters(const ExecutionContext& ctx, const Benchmark& bench,
                                 const fs::path& binary, const GpuProfileOptions& options) {
  GpuCounters counters;
  InjectionRun injected = run_injected(ctx, bench, binary, options, gpu_format::kModeCounters);
  if (!injected.category.empty()) {
    counters.category = injected.category;
    counters.failure = injected.failure;
    return counters;
  }
  auto data = read_gpu_counters(injected.out->path());
  if (!data) {
    counters.category = "no-counters";
    counters.failure = data.error().message;
    return counters;
  }
  counters.data = std::move(*data);
  counters.kernels = per_kernel(counters.data);
  if (counters.kernels.empty()) {
    counters.category = "no-counters";
    counters.failure = "the range profiler recorded no kernel launch";
  }
  return counters;
}

Json to_json(const GpuProfile& profile) {
  if (!profile.ok())
    return {{"format", "kopt-gpu-profile/1"},
            {"category", profile.category},
            {"failure", profile.failure}};
  Json json = to_json(profile.attribution);
  json["seconds"] = profile.seconds;
  json["cupti_total_samples"] = profile.samples.total_samples;
  json["dropped_samples"] = profile.samples.dropped_samples;
  json["non_user_kernel_samples"] = profile.samples.non_user_kernel_samples;
  json["summary"] = profile.summary;
  return json;
}

Json to_json(const GpuCounters& counters) {
  if (!counters.ok())
    return {{"format", "kopt-gpu-counters/1"},
            {"category", counters.category},
            {"failure", counters.failure}};
  return {{"format", "kopt-gpu-counters/1"},    {"chip", counters.data.chip},
          {"passes", counters.data.passes},     {"ranges_dropped", counters.data.ranges_dropped},
          {"warnings", counters.data.warnings}, {"kernels", to_json(counters.kernels)}};
}

}  // namespace kopt
