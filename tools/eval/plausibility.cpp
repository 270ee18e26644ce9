#include "tools/eval/plausibility.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "sandbox/process.h"
#include "tools/eval/toolchain.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace {

double best(const CoreRates& r) {
  return std::max(r.one_core, r.all_cores);
}

// The table's name for the GPU nvidia-smi reports, or empty.
std::string gpu_table_name(ProcessRunner& runner) {
  const std::string smi = find_executable("nvidia-smi", {"/usr/bin", "/usr/local/bin", "/bin"});
  if (smi.empty() || !gpu_present()) return {};
  ProcessSpec spec;
  spec.argv = {smi, "--query-gpu=name", "--format=csv,noheader"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.timeout = std::chrono::seconds(20);
  const ProcessResult r = runner.run(spec);
  if (!r.succeeded()) return {};
  const std::string name = to_lower(r.output);
  for (const char* known : {"h200", "h100", "a100", "3080"})
    if (name.find(known) != std::string::npos) return known;
  return {};
}

}  // namespace

std::optional<Roof> roof_for(const ExecutionContext& ctx, const Benchmark& bench) {
  if (const char* file = std::getenv("KOPT_MACHINE_MODEL"); file && *file) {
    auto doc = read_json_file(file);
    if (!doc) return std::nullopt;
    auto model = machine_from_json(*doc);
    if (!model) return std::nullopt;
    return host_roof(*model);
  }
  if (bench.language == Language::cuda) {
    const std::string name = gpu_table_name(*ctx.runner);
    if (name.empty()) return std::nullopt;
    auto spec = find_hardware(name);
    if (!spec) return std::nullopt;
    return gpu_roof(*spec);
  }
  auto model = host_machine(ctx, MachineOptions{});
  if (!model) return std::nullopt;
  return host_roof(*model);
}

Roof host_roof(const MachineModel& model) {
  Roof roof;
  roof.machine = fmt::format("host {} ({} threads), measured {}", model.host.cpu_model,
                             model.host.threads, model.measured_at);
  roof.flops = best(model.fp64);
  roof.bandwidth = best(model.bandwidth);
  roof.cache_bytes = static_cast<double>(model.host.last_level_cache_bytes());
  if (!model.trusted()) {
    roof.trusted = false;
    roof.caveat = model.caveat();
  }
  return roof;
}

Roof gpu_roof(const HardwareSpec& spec) {
  Roof roof;
  roof.machine = spec.full_name + " (datasheet)";
  roof.flops = std::max(spec.peaks.fp32, spec.peaks.fp64);
  roof.bandwidth = spec.peaks.dram_bandwidth;
  roof.cache_bytes = spec.l2_bytes;
  return roof;
}

Plausibility judge_plausibility(double flops, double bytes, double footprint, double seconds,
                                const Roof& roof, double margin) {
  Plausibility p;
  p.margin = margin;
  p.measured_seconds = seconds;
  const double compute = roof.flops > 0 ? flops / roof.flops : 0;
  // The harness fills the inputs and poisons the outputs just before each call, so up to a
  // cache's worth of the footprint can already be cached when the clock starts: only the rest
  // must cross the memory bus, and only once (a faster version may fuse the original's passes).
  const double from_memory = std::min(bytes, footprint) - roof.cache_bytes;
  const double memory = roof.bandwidth > 0 && from_memory > 0 ? from_memory / roof.bandwidth : 0;
  p.bound_seconds = std::max(compute, memory);
  if (p.bound_seconds <= 0 || seconds <= 0) {
    p.reason = "no roof applies: the manifest's work fits in the caches or counts no operations";
    return p;
  }
  p.limit = compute >= memory ? "compute" : "memory";
  if (!roof.trusted) {
    p.reason = "not judged: " + roof.caveat;
    return p;
  }
  p.judged = true;
  const double ratio = p.bound_seconds / seconds;
  const std::string figures = fmt::format(
      "{:.3g} s per call where the {} roof of {} allows no less than {:.3g} s ({:.3g} GFLOP/s, "
      "{:.3g} GB/s achieved; roof {:.3g} GFLOP/s, {:.3g} GB/s)",
      seconds, p.limit, roof.machine, p.bound_seconds, flops / seconds * 1e-9,
      bytes / seconds * 1e-9, roof.flops * 1e-9, roof.bandwidth * 1e-9);
  p.ok = ratio <= margin;
  p.reason = p.ok ? fmt::format("within the roofline: {}", figures)
                  : fmt::format(
                        "faster than the hardware allows ({:.2f}x past the roof, margin "
                        "{:.2f}x): {}",
                        ratio, margin, figures);
  return p;
}

Json to_json(const Plausibility& p) {
  return {{"judged", p.judged},
          {"ok", p.ok},
          {"bound_seconds", p.bound_seconds},
          {"measured_seconds", p.measured_seconds},
          {"margin", p.margin},
          {"limit", p.limit},
          {"reason", p.reason}};
}

}  // namespace kopt
