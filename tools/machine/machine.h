// The host's machine model for the roofline: sustained memory bandwidth (STREAM triad), peak
// double, single and 32-bit integer rates on the widest vectors (one core and all cores), and
// the caches, measured once and cached under cache_dir()/machine/ keyed by the CPU model, the
// probe's source and the compiler ("kopt-machine/1").
#pragma once

#include <functional>
#include <string>

#include "tools/eval/context.h"
#include "tools/machine/host.h"
#include "tools/roofline/counters.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// A rate measured on one core and on all cores.
struct CoreRates {
  double one_core = 0;
  double all_cores = 0;
};

/// The measured host.
/// The triad's rate with its three arrays inside one level of the cache hierarchy.
struct CacheBandwidth {
  int level = 0;
  double one_core_bytes = 0;   ///< The working set of the one-core run (half a cache instance).
  double all_cores_bytes = 0;  ///< ... and of the all-core run (half the level, every instance).
  CoreRates rates;             ///< Triad bytes/s.
};

struct MachineModel {
  HostInfo host;
  CoreRates bandwidth;  ///< Triad bytes/s (24 bytes per element, as STREAM counts).
  CoreRates fp64;       ///< flop/s, FMA = 2.
  CoreRates fp32;
  CoreRates int32;                     ///< 32-bit integer vector op/s.
  double triad_bytes = 0;              ///< Footprint of the triad's three arrays.
  std::vector<CacheBandwidth> caches;  ///< Per data cache level, innermost first; may be empty.
  std::string compiler;                ///< Fingerprint of the compiler that built the probe.
  std::string key;                     ///< Cache key.
  std::string measured_at;             ///< ISO 8601, UTC.
  double load_average = 0;  ///< The 1-minute load average when the measurement began (-1: a
                            ///< file that does not say, written by an older kopt)...
  double load_after = 0;    ///< ... and when it ended.
  int attempts = 1;         ///< Measurements made until one was plausible (or gave up).
  bool cached = false;      ///< Read from the cache rather than measured now.

  /// Whether the figures can be trusted as the machine's ceilings: measured with a known load,
  /// not under load (load average above half the logical CPUs), and every all-core rate at
  /// least 0.9 times its one-core rate.
  bool trusted() const;
  /// Why the model is not trusted, or empty.
  std::string caveat() const;

  /// All-core peaks, named "host".
  Peaks peaks() const;
};

/// Why `model` cannot be a quiet machine's (a rate on all cores below 0.9 times the same rate
/// on one core: something else ran beside the probe), or empty.
std::string implausibility(const MachineModel& model);

/// How to measure.
struct MachineOptions {
  bool refresh = false;            ///< Measure even when a cached model exists.
  double seconds_per_probe = 0.5;  ///< Length of each compute measurement.
  int triad_reps = 10;             ///< Passes of the triad; the best one counts.
  int rounds = 3;                  ///< Runs of each probe; the best one counts.
  int attempts = 2;                ///< Measurements at most while the result is implausible.
};

/// Receives "compile", "triad 1 core", ... as the measurement moves on.
using MachineProgress = std::function<void(const std::string& step)>;

/// The cached model of this host, or a fresh measurement (stored in the cache). The probe holds
/// the host-wide timing lease while it measures, and measures again (`attempts` in all) while
/// the result is implausible. A cached model is measured again when older than 30 days, or
/// when it is not trusted and the machine is now quiet enough to do better.
Result<MachineModel> host_machine(const ExecutionContext& ctx, const MachineOptions& options,
                                  const MachineProgress& progress = {});

/// The 1-minute load average (/proc/loadavg), or 0 when unreadable.
double current_load_average();

/// Whether `load` is busier than half of `threads` logical CPUs: measurements then include
/// waiting for a core.
bool under_load(double load, int threads);

/// The kopt-machine/1 document.
Json to_json(const MachineModel& model);
Result<MachineModel> machine_from_json(const Json& doc);

/// A few lines for people: model, cores, caches, bandwidth, peaks, balance points.
std::string describe(const MachineModel& model);

}  // namespace kopt
