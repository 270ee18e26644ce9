#include "tools/machine/machine.h"

#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "tools/eval/evaluation.h"
#include "tools/eval/toolchain.h"
#include "tools/machine/probe.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/timing_lease.h"

namespace kopt {

namespace {

constexpr const char* kFormat = "kopt-machine/1";

// Three arrays of four times the last-level cache in all (at least 256 MiB, at most a quarter
// of the memory), so that the triad streams from DRAM.
double triad_footprint(const HostInfo& host) {
  const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  const double wanted = std::max(4.0 * host.last_level_cache_bytes(), 256.0 * (1 << 20));
  return std::min(wanted, memory / 4);
}

// The data cache levels worth a roof: each with the triad's working sets that fit it (half of
// one instance on one core, half of every instance on all), innermost first, below the DRAM
// triad's footprint.
std::vector<CacheBandwidth> cache_levels(const HostInfo& host, double triad_bytes) {
  std::vector<CacheBandwidth> levels;
  for (const auto& c : host.caches) {
    if (c.type == "Instruction" || c.bytes == 0) continue;
    const double one = static_cast<double>(c.bytes) / 2;
    const double all = one * std::max(1, c.instances);
    if (all >= triad_bytes / 2) continue;
    levels.push_back({c.level, one, all, {}});
  }
  std::sort(levels.begin(), levels.end(),
            [](const CacheBandwidth& a, const CacheBandwidth& b) { return a.level < b.level; });
  return levels;
}

// The best of `rounds` runs of the probe (each already the best of several passes): on a
// shared machine the fastest run is the one least disturbed by others.
Result<double> rate_of(const MachineProbe& probe, const std::vector<std::string>& args, int threads,
                       int rounds) {
  double best = 0;
  for (int round = 0; round < rounds; ++round) {
    auto doc = probe.run(args, threads);
    if (!doc) return doc.error();
    best = std::max(best, doc->value("rate", 0.0));
  }
  if (!(best > 0)) return fail("probe " + args.front() + " measured no rate");
  return best;
}

// The triad with its arrays in each data cache level, on one core and on all.
Status measure_caches(const MachineProbe& probe, const MachineOptions& options,
                      const MachineProgress& progress, MachineModel& model) {
  model.caches = cache_levels(model.host, model.triad_bytes);
  for (auto& level : model.caches) {
    for (int threads : {1, model.host.threads}) {
      if (progress) progress(fmt::format("L{} triad on {} thread(s)", level.level, threads));
      const double bytes = threads == 1 ? level.one_core_bytes : level.all_cores_bytes;
      auto rate = rate_of(
          probe, {"triad", fmt::format("{:.0f}", bytes), std::to_string(options.triad_reps)},
          threads, options.rounds);
      if (!rate) return rate.error();
      (threads == 1 ? level.rates.one_core : level.rates.all_cores) = *rate;
    }
  }
  return {};
}

Status measure(const ExecutionContext& ctx, const std::string& compiler,
               const MachineOptions& options, const MachineProgress& progress,
               MachineModel& model) {
  auto source = read_file(probe_source_path());
  if (!source) return source.error();
  MachineProbe probe(ctx);
  if (progress) progress("compile the probe");
  if (auto st = probe.compile(compiler, *source); !st) return st;
  model.triad_bytes = triad_footprint(model.host);
  const std::string seconds = fmt::format("{}", options.seconds_per_probe);
  struct Step {
    const char* name;
    std::vector<std::string> args;
    CoreRates* rates;
  };
  const std::vector<Step> steps = {
      {"triad",
       {"triad", fmt::format("{:.0f}", model.triad_bytes), std::to_string(options.triad_reps)},
       &model.bandwidth},
      {"fp64", {"fma64", seconds}, &model.fp64},
      {"fp32", {"fma32", seconds}, &model.fp32},
      {"int32", {"int32", seconds}, &model.int32}};
  for (const auto& step : steps) {
    for (int threads : {1, model.host.threads}) {
      if (progress)
        progress(fmt::format("{} on {} thread{}", step.name, threads, threads > 1 ? "s" : ""));
      auto rate = rate_of(probe, step.args, threads, options.rounds);
      if (!rate) return rate.error();
      (threads == 1 ? step.rates->one_core : step.rates->all_cores) = *rate;
    }
  }
  return measure_caches(probe, options, progress, model);
}

// Measures until the model is plausible or the attempts are spent, holding the timing lease.
Status measure_plausibly(const ExecutionContext& ctx, const std::string& compiler,
                         const MachineOptions& options, const MachineProgress& progress,
                         MachineModel& model) {
  const TimingLease lease("kopt machine: probe");
  for (model.attempts = 1;; ++model.attempts) {
    model.load_average = current_load_average();
    if (auto st = measure(ctx, compiler, options, progress, model); !st) return st;
    model.load_after = current_load_average();
    const std::string why = implausibility(model);
    if (why.empty() || model.attempts >= options.attempts) return {};
    if (progress) progress("implausible (" + why + "), measuring again");
  }
}

Json rates_json(const CoreRates& r) {
  return {{"one_core", r.one_core}, {"all_cores", r.all_cores}};
}

CoreRates rates_from(const Json& j) {
  return {j.value("one_core", 0.0), j.value("all_cores", 0.0)};
}

constexpr double kStaleDays = 30;

// Days since an ISO 8601 UTC time stamp ("2026-11-23T17:40:03Z"); large when unreadable.
double age_in_days(const std::string& stamp) {
  std::tm tm{};
  if (!strptime(stamp.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return 1e9;
  const std::time_t then = timegm(&tm);
  return std::difftime(std::time(nullptr), then) / 86400.0;
}

bool needs_measuring(const MachineModel& cached) {
  if (age_in_days(cached.measured_at) > kStaleDays) return true;
  return !cached.trusted() && !under_load(current_load_average(), cached.host.threads);
}

}  // namespace

bool under_load(double load, int threads) {
  return load > 0.5 * std::max(threads, 1);
}

double current_load_average() {
  const std::vector<double> loads = load_averages();
  return loads.empty() ? 0 : loads[0];
}

std::string implausibility(const MachineModel& m) {
  const std::pair<const char*, const CoreRates*> rates[] = {
      {"bandwidth", &m.bandwidth}, {"fp64", &m.fp64}, {"fp32", &m.fp32}, {"int32", &m.int32}};
  for (const auto& [name, r] : rates)
    if (r->all_cores < 0.9 * r->one_core)
      return fmt::format("{} on all cores {:.3g} is below one core's {:.3g}", name, r->all_cores,
                         r->one_core);
  return "";
}

bool MachineModel::trusted() const {
  return caveat().empty();
}

std::string MachineModel::caveat() const {
  if (load_average < 0)
    return "the machine model does not say the load it was measured under (an older kopt wrote "
           "it); run `kopt machine --refresh` on a quiet machine";
  if (under_load(load_average, host.threads))
    return fmt::format(
        "the machine model was measured under load (load average {:.1f} on {} "
        "logical CPUs); run `kopt machine --refresh` on a quiet machine",
        load_average, host.threads);
  if (const std::string why = implausibility(*this); !why.empty())
    return "the machine model is implausible: " + why;
  return {};
}

Peaks MachineModel::peaks() const {
  Peaks p{"host", fp32.all_cores, fp64.all_cores, int32.all_cores, bandwidth.all_cores};
  for (const auto& c : caches) p.cache_bandwidth.emplace_back(c.level, c.rates.all_cores);
  return p;
}

Result<MachineModel> host_machine(const ExecutionContext& ctx, const MachineOptions& options,
                                  const MachineProgress& progress) {
  MachineModel model;
  model.host = read_host_info();
  auto tc = find_toolchain(Language::openmp, *ctx.runner);
  if (!tc) return tc.error();
  auto source = read_file(probe_source_path());
  if (!source) return source.error();
  Hasher hasher;
  hasher.add("machine-v2").add(model.host.cpu_model).add(*source).add(tc->fingerprint);
  model.key = hasher.hex();
  const auto path = ctx.cache_root / "machine" / (model.key + ".json");
  if (!options.refresh)
    if (auto doc = read_json_file(path); doc)
      if (auto cached = machine_from_json(*doc); cached && !needs_measuring(*cached)) {
        cached->cached = true;
        return cached;
      }
  model.compiler = tc->fingerprint;
  if (auto st = measure_plausibly(ctx, tc->compiler, options, progress, model); !st)
    return st.error();
  model.measured_at = now_iso8601();
  if (auto st = write_json_file(path, to_json(model)); !st) return st.error();
  return model;
}

namespace {

Json caches_json(const std::vector<CacheBandwidth>& caches) {
  Json out = Json::array();
  for (const auto& c : caches)
    out.push_back({{"level", c.level},
                   {"one_core_bytes", c.one_core_bytes},
                   {"all_cores_bytes", c.all_cores_bytes},
                   {"bandwidth", rates_json(c.rates)}});
  return out;
}

std::vector<CacheBandwidth> caches_from(const Json& doc) {
  std::vector<CacheBandwidth> caches;
  if (!doc.is_array()) return caches;
  for (const Json& c : doc) {
    if (!c.is_object()) continue;
    CacheBandwidth level{c.value("level", 0), c.value("one_core_bytes", 0.0),
                         c.value("all_cores_bytes", 0.0),
                         rates_from(c.value("bandwidth", Json::object()))};
    if (level.level > 0 && level.rates.all_cores > 0) caches.push_back(level);
  }
  return caches;
}

}  // namespace

Json to_json(const MachineModel& m) {
  return {{"format", kFormat},
          {"host", to_json(m.host)},
          {"bandwidth", rates_json(m.bandwidth)},
          {"fp64", rates_json(m.fp64)},
          {"fp32", rates_json(m.fp32)},
          {"int32", rates_json(m.int32)},
          {"triad_bytes", m.triad_bytes},
          {"caches", caches_json(m.caches)},
          {"peaks", to_json(m.peaks())},
          {"balance", to_json(balance_points(m.peaks()))},
          {"compiler", m.compiler},
          {"key", m.key},
          {"measured_at", m.measured_at},
          {"load_average", m.load_average},
          {"load_after", m.load_after},
          {"attempts", m.attempts},
          {"trusted", m.trusted()},
          {"caveat", m.caveat()},
          {"cached", m.cached}};
}

Result<MachineModel> machine_from_json(const Json& doc) {
  if (doc.value("format", "") != kFormat) return fail("not a kopt-machine/1 document");
  MachineModel m;
  m.host = host_info_from_json(doc.value("host", Json::object()));
  m.bandwidth = rates_from(doc.value("bandwidth", Json::object()));
  m.fp64 = rates_from(doc.value("fp64", Json::object()));
  m.fp32 = rates_from(doc.value("fp32", Json::object()));
  m.int32 = rates_from(doc.value("int32", Json::object()));
  m.triad_bytes = doc.value("triad_bytes", 0.0);
  m.caches = caches_from(doc.value("caches", Json::array()));
  m.compiler = doc.value("compiler", "");
  m.key = doc.value("key", "");
  m.measured_at = doc.value("measured_at", "");
  m.load_average = doc.value("load_average", -1.0);
  m.load_after = doc.value("load_after", 0.0);
  m.attempts = doc.value("attempts", 1);
  if (!(m.bandwidth.all_cores > 0 && m.fp64.all_cores > 0)) return fail("incomplete machine model");
  return m;
}

std::string describe(const MachineModel& m) {
  std::string text =
      fmt::format("cpu        {} ({} cores, {} threads, {}-bit vectors{})\n", m.host.cpu_model,
                  m.host.cores, m.host.threads, m.host.vector_bits, m.host.fma ? ", FMA" : "");
  for (const auto& c : m.host.caches)
    text += fmt::format("cache      L{} {:<11} {:>7} KiB x {}\n", c.level, c.type, c.bytes >> 10,
                        c.instances);
  auto row = [](const char* name, const CoreRates& r, double scale, const char* unit) {
    return fmt::format("{:<10} {:8.1f} {} on one core, {:8.1f} {} on all cores\n", name,
                       r.one_core / scale, unit, r.all_cores / scale, unit);
  };
  text += row("bandwidth", m.bandwidth, 1e9, "GB/s    ");
  for (const auto& c : m.caches)
    text += row(fmt::format("L{} triad", c.level).c_str(), c.rates, 1e9, "GB/s    ");
  text += row("fp64", m.fp64, 1e9, "GFLOP/s ");
  text += row("fp32", m.fp32, 1e9, "GFLOP/s ");
  text += row("int32", m.int32, 1e9, "GOP/s   ");
  const Intensities b = balance_points(m.peaks());
  text += fmt::format("balance    fp64 {:.2f}, fp32 {:.2f}, int32 {:.2f} op/byte\n", b.fp64, b.fp32,
                      b.int_ops);
  text += fmt::format("measured   {}{} (triad over {:.0f} MiB; {})\n", m.measured_at,
                      m.cached ? ", cached" : "", m.triad_bytes / (1 << 20), m.compiler);
  text += fmt::format("load       {:.2f} before, {:.2f} after; {} attempt{}\n", m.load_average,
                      m.load_after, m.attempts, m.attempts > 1 ? "s" : "");
  if (!m.trusted()) text += "caveat     " + m.caveat() + "\n";
  return text;
}

}  // namespace kopt
