#include "tools/profile/cpu_profiler.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "tools/eval/build.h"
#include "tools/eval/stats.h"
#include "tools/machine/host.h"
#include "tools/profile/samplers.h"
#include "util/strings.h"

namespace kopt {

namespace {

constexpr double kCallgrindNativeSeconds = 0.05;  // callgrind runs ~50-100x slower

// Median seconds of one call, from a short time-mode run.
Result<double> calibrate(const ProfileWorkspace& ws, const DriverCall& base) {
  DriverCall call = base;
  call.mode = "time";
  call.warmup = 1;
  call.reps = 3;
  ProcessResult r = ws.run(ProfileWorkspace::driver_args(call), {}, std::chrono::seconds(300));
  if (!r.succeeded())
    return fail("the driver does not run (" + r.describe() + "): " + trim(tail(r.output, 300)));
  const double t = ws.median_call_seconds();
  if (!(t > 0)) return fail("the driver reported no call times");
  return t;
}

int reps_for(double seconds, double call_seconds, int most) {
  return static_cast<int>(std::clamp(std::ceil(seconds / call_seconds), 1.0, double(most)));
}

std::chrono::seconds timeout_for(double native_seconds, double slowdown) {
  return std::chrono::seconds(
      static_cast<long>(std::min(1800.0, 120 + 3 * native_seconds * slowdown)));
}

ProfileOverhead measure_overhead(const ProfileWorkspace& ws, const DriverCall& base,
                                 double call_seconds, int frequency) {
  ProfileOverhead o;
  DriverCall call = base;
  call.mode = "time";
  call.warmup = 1;
  call.reps = o.reps = reps_for(1.0, call_seconds, 2000);
  std::vector<double> plain, profiled;
  for (o.rounds = 0; o.rounds < 3; ++o.rounds) {
    const auto args = ProfileWorkspace::driver_args(call);
    if (ws.run(args, {}, timeout_for(1, 1)).succeeded()) plain.push_back(ws.median_call_seconds());
    if (ws.run(perf_record_args(frequency, args), {}, timeout_for(1, 2)).succeeded())
      profiled.push_back(ws.median_call_seconds());
  }
  o.plain_seconds = upper_median(plain);
  o.profiled_seconds = upper_median(profiled);
  return o;
}

namespace fs = std::filesystem;

// Copies the profiler's output `file` from the workspace to `keep`, with the driver twice: as
// keep/bench, and under keep/symfs at the absolute path the profile names it by (perf report
// --symfs, hotspot --sysroot), beside links to the system's library folders. Records where it
// went and how to open it in `profile`.
Status keep_raw_data(const ProfileWorkspace& ws, const std::string& file, const fs::path& keep,
                     CpuProfile& profile) {
  if (keep.empty()) return {};
  const fs::path symfs = keep / "symfs";
  const fs::path mirrored = symfs / fs::path(ws.binary()).relative_path();
  std::error_code ec;
  fs::remove_all(symfs, ec);  // A previous profile's driver, under another workspace's path.
  fs::create_directories(mirrored.parent_path(), ec);
  const auto copy = fs::copy_options::overwrite_existing;
  if (!ec) fs::copy_file(ws.path() / file, keep / file, copy, ec);
  if (!ec) fs::copy_file(ws.binary(), keep / "bench", copy, ec);
  if (!ec) fs::copy_file(ws.binary(), mirrored, copy, ec);
  // The system's libraries (libm, libc, libgomp) are read under symfs too: links to them.
  for (const char* system : {"usr", "lib", "lib64", "lib32", "opt"})
    if (!ec && fs::exists(fs::path("/") / system) && !fs::exists(symfs / system))
      fs::create_directory_symlink(fs::path("/") / system, symfs / system, ec);
  if (ec) return fail("cannot keep " + file + " in " + keep.string() + ": " + ec.message());
  const fs::path kept = fs::absolute(keep / file);
  profile.raw_file = kept.string();
  const std::string root = fs::absolute(symfs).string();
  profile.open_with = file == "perf.data"
                          ? "perf report -i " + kept.string() + " --symfs " + root +
                                " (or hotspot --sysroot " + root + " " + kept.string() + ")"
                          : "callgrind_annotate " + kept.string() + " (or kcachegrind)";
  return {};
}

Result<CpuProfile> run_callgrind(EvaluationExecutor& executor, const ExecutionContext& ctx,
                                 const Benchmark& bench, const std::string& source,
                                 SamplerRequest request, double call_seconds,
                                 const fs::path& keep) {
  Benchmark plain = bench;
  const auto& isa = read_host_info().isa;
  if (std::find(isa.begin(), isa.end(), "avx512f") != isa.end()) {
    plain.flags.push_back("-mno-avx512f");
    plain.hash += "|no-avx512 for valgrind";
  }
  BuildOutcome build = executor.build(plain, source);
  if (!build.ok) return fail("cannot build the variant for callgrind: " + build.failure);
  ProfileWorkspace ws(ctx, build.binary);
  if (auto st = ws.ready(); !st) return st.error();
  request.call.reps = reps_for(kCallgrindNativeSeconds, call_seconds, 1000);
  request.timeout = timeout_for(request.call.reps * call_seconds + 1, 100);
  auto profile = profile_with_callgrind(ws, request);
  if (profile)
    if (auto kept = keep_raw_data(ws, "callgrind.out", keep, *profile); !kept) return kept.error();
  return profile;
}

}  // namespace

Result<ProfileRun> profile_cpu(EvaluationExecutor& executor, const ExecutionContext& ctx,
                               const Benchmark& bench, const std::string& source,
                               const CpuProfileOptions& options) {
  if (bench.language == Language::cuda)
    return fail("a CUDA benchmark: the CPU profiler does not apply");
  BuildOutcome build = executor.build(bench, source);
  if (!build.ok) return fail("the variant does not build: " + build.failure);
  ProfileWorkspace ws(ctx, build.binary);
  if (auto st = ws.ready(); !st) return st.error();
  SamplerRequest request;
  request.call.size = options.size > 0 ? options.size : bench.time_size;
  auto dims = named_size_words(bench.named_sizes, request.call.size);
  if (!dims) return dims.error();
  request.call.dims = join(*dims, ",");
  request.call.seed = options.seed;
  request.kernel_file = workspace_kernel_name(bench);
  request.kernel_source = source;
  request.frequency = options.frequency;
  auto call_seconds = calibrate(ws, request.call);
  if (!call_seconds) return call_seconds.error();

  ProfileRun run;
  Result<CpuProfile> profile = fail("no profiler chosen");
  std::string perf_problem;
  if (options.profiler != "callgrind") {
    Status usable = perf_available(ws);
    if (usable) {
      request.call.reps = reps_for(options.seconds, *call_seconds, 100000);
      request.timeout = timeout_for(request.call.reps * *call_seconds, 2);
      profile = profile_with_perf(ws, request);
      if (profile)
        if (auto kept = keep_raw_data(ws, "perf.data", options.keep_dir, *profile); !kept)
          return kept.error();
    }
    if (!profile) perf_problem = usable ? profile.error().message : usable.error().message;
    if (!profile && options.profiler == "perf") return fail(perf_problem);
  }
  if (!profile)
    profile = run_callgrind(executor, ctx, bench, source, request, *call_seconds, options.keep_dir);
  if (!profile) return profile.error();
  run.profile = std::move(*profile);
  run.profile.fallback_reason = perf_problem;
  run.profile.size = request.call.size;
  run.profile.reps = run.profile.profiler == "perf"
                         ? request.call.reps
                         : reps_for(kCallgrindNativeSeconds, *call_seconds, 1000);
  run.profile.call_seconds = *call_seconds;
  // OpenMP's pool for an OpenMP benchmark; one thread for a sequential one, whatever the host has.
  const bool pooled = bench.language == Language::openmp && ctx.run_env.count("OMP_NUM_THREADS");
  run.profile.threads =
      pooled ? std::max(1, std::atoi(ctx.run_env.at("OMP_NUM_THREADS").c_str())) : 1;
  if (options.measure_overhead && run.profile.profiler == "perf")
    run.overhead = measure_overhead(ws, request.call, *call_seconds, options.frequency);
  return run;
}

Json to_json(const ProfileOverhead& o) {
  return {{"plain_seconds", o.plain_seconds},
          {"profiled_seconds", o.profiled_seconds},
          {"fraction", o.fraction()},
          {"rounds", o.rounds},
          {"reps", o.reps}};
}

}  // namespace kopt
