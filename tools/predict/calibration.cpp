#include "tools/predict/calibration.h"

#include <fmt/format.h>

#include <algorithm>

#include "tools/eval/evaluation.h"
#include "tools/eval/toolchain.h"
#include "tools/machine/probe.h"
#include "tools/roofline/static_cpu.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

constexpr const char* kFormat = "kopt-calibration/1";

// The sweep: each kernel at a size that keeps its arrays where the term it measures lives
// (the stream beyond every cache, the rest inside the first level) and runs for ~10-50 ms.
struct SweepPoint {
  const char* kernel;
  long n;
  long reps;
};
constexpr SweepPoint kSweep[] = {{"kc_stream", 1L << 23, 2},
                                 {"kc_issue", 512, 100000},
                                 {"kc_chain", 512, 20000},
                                 {"kc_divide", 512, 20000},
                                 {"kc_special", 512, 2000}};

std::filesystem::path sweep_dir() {
  return kopt_home() / "tools" / "predict";
}

Result<std::string> read_sweep_file(const char* name) {
  return read_file(sweep_dir() / name);
}

// Static counts of every sweep kernel at its size, from the same analysis a prediction uses.
Result<std::map<std::string, StaticCounts>> count_sweep(const ExecutionContext& ctx,
                                                        const std::string& kernels) {
  TempDir ws("calibration-", ctx.work_root);
  if (auto st = write_file(ws.path() / "kernels.cc", kernels); !st) return st.error();
  share_workspace(ws.path(), ctx.policy);
  auto module = compile_ir(ctx, ws.path(), native_ir_flags({"-std=c++20"}), "kernels.cc");
  if (!module) return module.error();
  std::map<std::string, StaticCounts> counts;
  for (const auto& point : kSweep) {
    TripAssumptions assume;
    assume.size = static_cast<double>(point.n);
    assume.arguments = {static_cast<double>(point.n), static_cast<double>(point.reps)};
    counts[point.kernel] = cost_module(module->functions, module->facts, {point.kernel}, assume);
  }
  return counts;
}

Result<std::map<std::string, double>> time_sweep(const ExecutionContext& ctx,
                                                 const std::string& source) {
  auto tc = find_toolchain(Language::openmp, *ctx.runner);
  if (!tc) return tc.error();
  MachineProbe probe(ctx);
  if (auto st = probe.compile(tc->compiler, source); !st) return st.error();
  std::map<std::string, double> seconds;
  const TimingLease lease("kopt predict: calibration");
  for (const auto& point : kSweep) {
    auto doc = probe.run({point.kernel, std::to_string(point.n), std::to_string(point.reps)}, 1);
    if (!doc) return doc.error();
    const double s = doc->value("seconds", 0.0);
    if (!(s > 0))
      return fail(std::string("the calibration kernel ") + point.kernel + " reported no time");
    seconds[point.kernel] = s;
  }
  return seconds;
}

bool under_load(double load) {
  return kopt::under_load(load, read_host_info().threads);
}

double per_unit(double seconds, double units) {
  return units > 0 ? seconds / units : 0;
}

Calibration fit(const std::map<std::string, StaticCounts>& counts,
                const std::map<std::string, double>& seconds, const MachineModel& machine) {
  Calibration c;
  c.issue = per_unit(seconds.at("kc_issue"), counts.at("kc_issue").instructions);
  c.chain = per_unit(seconds.at("kc_chain"), counts.at("kc_chain").chain_steps);
  c.divide = per_unit(seconds.at("kc_divide"), counts.at("kc_divide").divides);
  const StaticCounts& special = counts.at("kc_special");
  const double library = special.special_calls - special.square_roots;
  c.special =
      per_unit(std::max(seconds.at("kc_special") - c.issue * special.instructions, 0.0), library);
  const double stream_bytes = counts.at("kc_stream").counters.dram_bytes;
  const double bandwidth = machine.bandwidth.one_core;
  if (stream_bytes > 0 && bandwidth > 0)
    c.memory = seconds.at("kc_stream") / (stream_bytes / bandwidth);
  c.sweep = Json::object();
  for (const auto& point : kSweep) {
    const StaticCounts& k = counts.at(point.kernel);
    c.sweep[point.kernel] = {{"n", point.n},
                             {"reps", point.reps},
                             {"seconds", seconds.at(point.kernel)},
                             {"instructions", k.instructions},
                             {"chain_steps", k.chain_steps},
                             {"divides", k.divides},
                             {"library_calls", k.special_calls - k.square_roots},
                             {"dram_bytes", k.counters.dram_bytes}};
  }
  return c;
}

// A sweep whose dominant count came out zero measured nothing: the analysis changed under it.
Status check_counts(const std::map<std::string, StaticCounts>& counts) {
  const std::pair<const char*, double> dominant[] = {
      {"kc_stream", counts.at("kc_stream").counters.dram_bytes},
      {"kc_issue", counts.at("kc_issue").instructions},
      {"kc_chain", counts.at("kc_chain").chain_steps},
      {"kc_divide", counts.at("kc_divide").divides},
      {"kc_special", counts.at("kc_special").special_calls}};
  for (const auto& [kernel, count] : dominant)
    if (!(count > 0))
      return fail(std::string("the static analysis finds nothing to count in the calibration "
                              "kernel ") +
                  kernel);
  return {};
}

}  // namespace

Result<Calibration> host_calibration(const ExecutionContext& ctx, const MachineModel& machine,
                                     bool refresh) {
  auto kernels = read_sweep_file("calibration_kernels.cc");
  auto timer = read_sweep_file("calibration_probe.cc");
  if (!kernels) return kernels.error();
  if (!timer) return timer.error();
  auto tc = find_toolchain(Language::openmp, *ctx.runner);
  if (!tc) return tc.error();
  Hasher hasher;
  hasher.add(kFormat).add(machine.host.cpu_model).add(*kernels).add(*timer).add(tc->fingerprint);
  const auto path = ctx.cache_root / "predict" / (hasher.hex() + ".json");
  if (!refresh)
    if (auto doc = read_json_file(path); doc)
      if (auto cached = calibration_from_json(*doc);
          cached && !(under_load(cached->load_average) && !under_load(current_load_average()))) {
        cached->cached = true;
        return cached;
      }
  auto counts = count_sweep(ctx, *kernels);
  if (!counts) return counts.error();
  if (auto st = check_counts(*counts); !st) return st.error();
  const double load = current_load_average();
  auto seconds = time_sweep(ctx, *kernels + "\n" + *timer);
  const double load_after = current_load_average();
  if (!seconds) return seconds.error();
  Calibration c = fit(*counts, *seconds, machine);
  c.key = hasher.hex();
  c.compiler = tc->fingerprint;
  c.measured_at = now_iso8601();
  c.load_average = std::max(load, load_after);
  if (auto st = write_json_file(path, to_json(c)); !st) return st.error();
  return c;
}

Json to_json(const Calibration& c) {
  return {{"format", kFormat},
          {"issue_seconds", c.issue},
          {"chain_seconds", c.chain},
          {"divide_seconds", c.divide},
          {"special_seconds", c.special},
          {"memory_factor", c.memory},
          {"sweep", c.sweep},
          {"key", c.key},
          {"compiler", c.compiler},
          {"measured_at", c.measured_at},
          {"load_average", c.load_average}};
}

Result<Calibration> calibration_from_json(const Json& doc) {
  if (json_text(doc, "format") != kFormat) return fail("not a kopt-calibration/1 document");
  Calibration c;
  c.issue = json_number(doc, "issue_seconds", 0.0);
  c.chain = json_number(doc, "chain_seconds", 0.0);
  c.divide = json_number(doc, "divide_seconds", 0.0);
  c.special = json_number(doc, "special_seconds", 0.0);
  c.memory = json_number(doc, "memory_factor", 1.0);
  if (!(c.issue > 0 && c.chain > 0 && c.divide > 0 && c.memory > 0 && c.special >= 0))
    return fail("the calibration document has a cost that is not positive");
  c.sweep = json_member(doc, "sweep").is_object() ? json_member(doc, "sweep") : Json::object();
  c.key = json_text(doc, "key", "");
  c.compiler = json_text(doc, "compiler", "");
  c.measured_at = json_text(doc, "measured_at", "");
  c.load_average = json_number(doc, "load_average", 0.0);
  return c;
}

std::string describe(const Calibration& c) {
  return fmt::format(
      "time model (one core): {:.3g} ns an instruction, {:.3g} ns a chained floating-point step, "
      "{:.3g} ns a division or root, {:.3g} ns a math-library call, memory at {:.2f}x the "
      "triad's time\ncalibrated {}{} (load {:.1f}{}; {})\n",
      c.issue * 1e9, c.chain * 1e9, c.divide * 1e9, c.special * 1e9, c.memory, c.measured_at,
      c.cached ? ", cached" : "", c.load_average,
      under_load(c.load_average)
          ? ": under load, so every cost is high; it is measured again when the machine is quiet"
          : "",
      c.compiler);
}

}  // namespace kopt
