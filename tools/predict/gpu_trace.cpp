#include "tools/predict/gpu_trace.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <sstream>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/eval/driver_run.h"
#include "tools/roofline/source_compile.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTracerSource = "cuda_launch_trace.cc";

// Bytes of a PTX parameter type: ".u64" 8, ".f32" 4, ".b8[24]" 24; 0 when unknown.
int param_bytes(const std::string& type) {
  if (const auto open = type.find('['); open != std::string::npos)
    return std::atoi(type.c_str() + open + 1) * std::max(param_bytes(type.substr(0, open)), 1);
  for (const auto& [bits, bytes] : {std::pair{"64", 8}, {"32", 4}, {"16", 2}, {"8", 1}})
    if (type.size() > 2 && type.substr(2) == bits) return bytes;
  return 0;
}

// The bytes of a hex word; nullopt when it is not one (the trace is the host code's stderr,
// which the benchmark's own code may write to as well).
std::optional<std::vector<unsigned char>> hex_bytes(const std::string& hex) {
  if (hex.size() % 2) return std::nullopt;
  std::vector<unsigned char> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, value, 16);
    if (ec != std::errc() || end != hex.data() + i + 2) return std::nullopt;
    out.push_back(static_cast<unsigned char>(value));
  }
  return out;
}

template <class T>
double as(const std::vector<unsigned char>& bytes) {
  T value;
  std::memcpy(&value, bytes.data(), sizeof value);
  return static_cast<double>(value);
}

// A launch CUDA could make: whole dimensions from 1 to CUDA's limits, at most 1024 threads a
// block, and shared memory not negative. The benchmark's or a candidate's own code may print a
// line that only looks like the tracer's; its grid of 1e308 or -5 blocks predicted "inf ms".
bool possible_launch(const LaunchConfig& launch, double shared) {
  const double grid_limits[] = {2147483647.0, 65535.0, 65535.0};
  double threads = 1;
  for (int d = 0; d < 3; ++d) {
    for (const double n : {launch.grid[d], launch.block[d]})
      if (!(n >= 1) || n != std::floor(n)) return false;
    if (launch.grid[d] > grid_limits[d] || launch.block[d] > 1024) return false;
    threads *= launch.block[d];
  }
  return threads <= 1024 && shared >= 0 && shared <= 1 << 30;
}

const PtxFunction* entry_named(const std::vector<PtxFunction>& module, const std::string& name) {
  for (const auto& f : module)
    if (f.entry && f.defined && f.name == name) return &f;
  return nullptr;
}

std::string run_tracer_build(const ExecutionContext& ctx, const Benchmark& bench,
                             const fs::path& ws) {
  std::vector<std::string> argv = {"/usr/local/cuda/bin/nvcc", "-std=c++17",   "-O1",
                                   "-arch=compute_80",         "-cudart=none", "-I."};
  for (const auto& flag : bench.flags)
    if (!starts_with(flag, "-O") && flag != "-lineinfo") argv.push_back(flag);
  argv.insert(argv.end(), {bench.driver_file(), "kernel.cu", kTracerSource, "-o", "tracer"});
  const ProcessResult r = run_build_tool(ctx, ws, argv, 300);
  if (r.spawn_failed || r.exit_code == 127) return "nvcc not found (install the CUDA toolkit)";
  if (!r.succeeded())
    return "the launch tracer does not build (a CUDA call kopt's stand-in lacks?): " +
           first_compiler_error(r.output);
  return {};
}

// The tracer's output for one call: built, run, and cached under the key.
Result<std::string> tracer_output(const ExecutionContext& ctx, const Benchmark& bench,
                                  const std::string& source, long size, const std::string& config) {
  auto tracer = read_file(kopt_home() / "tools" / "predict" / kTracerSource);
  if (!tracer) return tracer.error();
  Hasher hasher;
  hasher.add("gpu-trace-v1").add(source).add(*tracer).add(config).add(std::to_string(size));
  for (const auto& file : fixed_build_files(bench)) hasher.add_file(file);
  const fs::path cached = ctx.cache_root / "gpu-trace" / (hasher.hex() + ".txt");
  if (auto text = read_file(cached)) return text;
  TempDir ws("trace-", ctx.work_root);
  if (auto st = stage_build_workspace(bench, ws.path(), source); !st) return st.error();
  if (auto st = write_file(ws.path() / kTracerSource, *tracer); !st) return st.error();
  if (auto st = write_file(ws.path() / "kopt_trace_config.h", config); !st) return st.error();
  share_workspace(ws.path(), ctx.policy);
  if (const std::string failure = run_tracer_build(ctx, bench, ws.path()); !failure.empty())
    return fail(failure);
  DriverRequest request;
  request.mode = "run";
  request.size = size;
  request.seeds = {1};
  request.timeout = std::chrono::seconds(300);
  DriverRun run = run_driver(ctx, bench, ws.path() / "tracer", request);
  if (!run.failure.empty()) return fail("the launch tracer's call failed: " + run.failure);
  fs::create_directories(cached.parent_path());
  if (auto st = write_file(cached, run.process.output); !st) return st.error();
  return run.process.output;
}

}  // namespace

std::string trace_config(const std::vector<PtxFunction>& module, const HardwareSpec& gpu) {
  std::string out = fmt::format(
      "#define KOPT_TRACE_SMS {}\n#define KOPT_TRACE_CLOCK_KHZ {:.0f}\n#define "
      "KOPT_TRACE_L2_BYTES {:.0f}\n"
      "static const struct {{ const char* name; const char* sizes; }} kKoptTraceParams[] = {{\n",
      gpu.sm_count, gpu.clock_ghz * 1e6, gpu.l2_bytes);
  for (const auto& f : module) {
    if (!f.entry || !f.defined) continue;
    std::vector<std::string> sizes;
    for (const auto& type : f.param_types) sizes.push_back(std::to_string(param_bytes(type)));
    out += fmt::format("    {{\"{}\", \"{}\"}},\n", f.name, join(sizes, ","));
  }
  return out + "    {\"\", \"\"}};\n";
}

std::optional<double> decode_param(const std::string& hex, const std::string& type) {
  const int bytes = param_bytes(type);
  if (hex == "p" || type.find('[') != std::string::npos || bytes == 0 ||
      hex.size() != static_cast<size_t>(2 * bytes))
    return std::nullopt;
  const auto parsed = hex_bytes(hex);
  if (!parsed) return std::nullopt;
  const std::vector<unsigned char>& b = *parsed;
  const char kind = type.size() > 1 ? type[1] : '?';
  if (kind == 'f') return bytes == 8 ? as<double>(b) : bytes == 4 ? as<float>(b) : std::nan("");
  if (kind == 's') {
    if (bytes == 8) return as<int64_t>(b);
    if (bytes == 4) return as<int32_t>(b);
    return bytes == 2 ? as<int16_t>(b) : as<int8_t>(b);
  }
  if (bytes == 8) return as<uint64_t>(b);
  if (bytes == 4) return as<uint32_t>(b);
  return bytes == 2 ? as<uint16_t>(b) : as<uint8_t>(b);
}

std::vector<TracedLaunch> parse_launch_trace(const std::string& output,
                                             const std::vector<PtxFunction>& module) {
  std::vector<TracedLaunch> out;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string marker, name;
    TracedLaunch t;
    double shared = 0;
    if (!(words >> marker >> name) || marker != "kopt-launch") continue;
    if (!(words >> t.launch.grid[0] >> t.launch.grid[1] >> t.launch.grid[2] >> t.launch.block[0] >>
          t.launch.block[1] >> t.launch.block[2] >> shared) ||
        !possible_launch(t.launch, shared))
      continue;
    const PtxFunction* entry = entry_named(module, name);
    if (!entry) continue;
    t.symbol = name;
    std::string hex;
    for (size_t k = 0; k < entry->param_types.size() && words >> hex; ++k)
      t.args.push_back(decode_param(hex, entry->param_types[k]));
    out.push_back(std::move(t));
  }
  return out;
}

Result<std::vector<TracedLaunch>> trace_launches(const ExecutionContext& ctx,
                                                 const Benchmark& bench, const std::string& source,
                                                 long size, const std::string& ptx,
                                                 const HardwareSpec& gpu) {
  const auto module = parse_ptx_module(ptx);
  const long n = size > 0 ? size : bench.time_size;
  auto output = tracer_output(ctx, bench, source, n, trace_config(module, gpu));
  if (!output) return output.error();
  auto launches = parse_launch_trace(*output, module);
  if (launches.empty())
    return fail("the launch tracer saw no launch of the kernel file's kernels in one call");
  return launches;
}

}  // namespace kopt
