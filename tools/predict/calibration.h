// The time model's costs on this machine, measured once by a short sweep of microkernels
// (calibration_kernels.cc): each kernel is timed by the probe built with the benchmarks'
// compiler, counted by the same static analysis a prediction uses, and its time over its
// dominant count is that term's cost. Cached under cache_dir()/predict/ keyed by the CPU, the
// compiler and the sweep's sources ("kopt-calibration/1").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tools/eval/context.h"
#include "tools/machine/machine.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// Seconds per unit of each static count, on one core.
struct Calibration {
  double issue = 0;    ///< Per instruction that takes an issue slot (kc_issue).
  double chain = 0;    ///< Per step of a loop-carried floating-point chain (kc_chain).
  double divide = 0;   ///< Per division or square root (kc_divide).
  double special = 0;  ///< Per math-library call such as exp (kc_special).
  double memory = 1;   ///< A stream's measured time over bytes / the triad's bandwidth (kc_stream).
  Json sweep;          ///< Per kernel: its size, measured seconds and static counts.
  std::string key;
  std::string compiler;
  std::string measured_at;
  double load_average = 0;  ///< The higher 1-minute load average of the sweep's start and end.
  bool cached = false;
};

/// The cached calibration of this host and compiler, or a fresh sweep (a few seconds) stored
/// in the cache; a cached one measured under load is measured again once the machine is
/// quiet. `machine` gives the bandwidth the memory term is relative to.
Result<Calibration> host_calibration(const ExecutionContext& ctx, const MachineModel& machine,
                                     bool refresh = false);

Json to_json(const Calibration& calibration);
Result<Calibration> calibration_from_json(const Json& doc);

/// One line per term for people.
std::string describe(const Calibration& calibration);

}  // namespace kopt
