// The roofline gate: a measured time shorter than the hardware allows for the manifest's
// analytic work is not a speedup but a measurement artefact or a cheat, and is rejected with
// the figures. The roof is the host's measured machine model (tools/machine) for CPU
// benchmarks and the hardware table's entry for a GPU.
#pragma once

#include <optional>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/machine/hardware.h"
#include "tools/machine/machine.h"
#include "util/json.h"

namespace kopt {

/// How far past the roof a measured rate may go before it is rejected: 1.5x. The probes'
/// peaks are themselves measured (a triad counts 24 bytes where a read-mostly kernel moves
/// fewer write-allocate bytes; a kernel may vectorize better than the FMA probe's loop), so the
/// roof is a close, not an exact, bound.
inline constexpr double kRooflineMargin = 1.5;

/// The ceilings a call is held to.
struct Roof {
  std::string machine;     ///< "host: AMD EPYC ... measured 2026-..." or "h100 (datasheet)".
  double flops = 0;        ///< Peak operations per second of the benchmark's kind (0: none).
  double bandwidth = 0;    ///< DRAM bytes per second (0: none).
  double cache_bytes = 0;  ///< A footprint at most this large may be served by the caches.
  bool trusted = true;     ///< False when the model was measured under load (then no verdict).
  std::string caveat;      ///< Why the roof is not trusted.
};

/// The gate's finding for one evaluation.
struct Plausibility {
  bool judged = false;          ///< False when no roof applies (no work, untrusted model).
  bool ok = true;               ///< False: faster than the hardware allows.
  double bound_seconds = 0;     ///< The fastest a call can be on the roof.
  double measured_seconds = 0;  ///< The candidate's median per call.
  double margin = kRooflineMargin;
  std::string limit;   ///< "compute", "memory" or "" when nothing bounds the call.
  std::string reason;  ///< One line with the figures.
};

/// The host's roof: the fp64 peak (every CPU benchmark computes in double) and the triad
/// bandwidth, each the larger of one core and all cores; the last-level cache as cache_bytes.
Roof host_roof(const MachineModel& model);

/// A GPU's roof from its table entry: the larger of its fp32 and fp64 peaks, DRAM bandwidth, L2.
Roof gpu_roof(const HardwareSpec& spec);

/// The roof for a benchmark on this machine: the model in $KOPT_MACHINE_MODEL when set (a
/// kopt-machine/1 file), else the host's model (measured once and cached) for a CPU benchmark,
/// or the table entry of the GPU nvidia-smi names; nothing when none can be had.
std::optional<Roof> roof_for(const ExecutionContext& ctx, const Benchmark& bench);

/// Judges a call doing `flops` and moving `bytes` over a `footprint` of distinct bytes that
/// took `seconds`: the bound is max(flops / roof.flops, (min(bytes, footprint) -
/// roof.cache_bytes) / roof.bandwidth), the memory term only where that is positive: the part
/// of the footprint no cache can hold when the call starts must cross the memory bus at least
/// once.
Plausibility judge_plausibility(double flops, double bytes, double footprint, double seconds,
                                const Roof& roof, double margin = kRooflineMargin);

Json to_json(const Plausibility& p);

}  // namespace kopt
