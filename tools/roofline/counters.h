// The roofline's inputs and its classifier. A KernelCounters holds what one kernel execution
// did (operations by kind, DRAM bytes, duration), whoever counted it: the CUPTI range
// profiler on a GPU, the manifest's analytic work on the CPU, or the static analysis of the
// compiled code. place() turns it into intensities, balance points, achieved fractions of peak
// and a class, with the seed paper's rule (arXiv 2505.03988): bandwidth-bound when every
// intensity is below its balance point, compute-bound otherwise; a bandwidth-bound kernel that
// moves far less than the peak bandwidth is latency-bound.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "util/json.h"

namespace kopt {

/// Work and traffic of one kernel execution. Flops count add + mul + 2 * fma (special
/// functions, conversions and tensor cores are not counted); int_ops counts integer
/// operations (per lane for vector code); a kind nobody counted stays 0.
struct KernelCounters {
  std::string kernel;     ///< Kernel (or function) name.
  double seconds = 0;     ///< Duration of the execution; 0 when not measured.
  double dram_bytes = 0;  ///< Bytes moved between DRAM and the chip (reads + writes).
  double fp32_flops = 0;
  double fp64_flops = 0;
  double int_ops = 0;
};

/// Peak rates of a machine: op/s for each kind, bytes/s for DRAM.
struct Peaks {
  std::string name;
  double fp32 = 0;
  double fp64 = 0;
  double int_ops = 0;
  double dram_bandwidth = 0;
  /// Bytes/s of each data cache level (its level and rate, innermost first), where measured:
  /// the roofs under the DRAM one's for data that stays in a cache.
  std::vector<std::pair<int, double>> cache_bandwidth = {};
};

/// Operations per DRAM byte, by kind (an intensity or a balance point).
struct Intensities {
  double fp32 = 0;
  double fp64 = 0;
  double int_ops = 0;
};

/// What limits a kernel.
enum class BoundClass { compute, bandwidth, latency };

/// "compute-bound", "bandwidth-bound" or "latency-bound".
std::string to_string(BoundClass cls);

/// Parses the words of to_string() (and "compute", "bandwidth", "memory-bound", ...); false
/// when `text` names no class.
bool parse_bound_class(const std::string& text, BoundClass& cls);

/// A bandwidth-bound kernel below this fraction of peak bandwidth is latency-bound.
inline constexpr double kLatencyBandwidthFraction = 0.10;

/// Each kind's operations per DRAM byte; infinite for work without traffic, 0 without work.
Intensities intensities(const KernelCounters& counters);

/// Each kind's peak rate over the peak bandwidth: the intensity where the roof bends.
Intensities balance_points(const Peaks& peaks);

/// The seed paper's rule: bandwidth-bound iff every intensity is below its balance point.
BoundClass paper_class(const Intensities& intensity, const Intensities& balance);

/// A kernel placed on a machine's roofline.
struct RooflinePoint {
  std::string kernel;
  Intensities intensity;
  Intensities balance;
  bool timed = false;             ///< Whether counters.seconds was known (rates are valid).
  Intensities achieved;           ///< Achieved op/s of each kind.
  double bandwidth = 0;           ///< Achieved bytes/s.
  double bandwidth_fraction = 0;  ///< Achieved over peak bandwidth.
  double compute_fraction = 0;    ///< Largest achieved-over-peak among the three kinds.
  std::string limiting_kind;      ///< "fp32", "fp64", "int" or "dram": what the class is about.
  BoundClass by_intensity = BoundClass::bandwidth;  ///< The paper's two-way rule.
  BoundClass cls = BoundClass::bandwidth;           ///< With latency-bound where timed.
  /// How much faster the kernel could be at the roof it sits under (>= 1; 0 when untimed).
  double headroom = 0;
};

/// Places counters on a machine: intensities, balance points, rates and the class.
RooflinePoint place(const KernelCounters& counters, const Peaks& peaks,
                    double latency_fraction = kLatencyBandwidthFraction);

Json to_json(const KernelCounters& counters);
Json to_json(const Peaks& peaks);
Json to_json(const Intensities& intensities);
Json to_json(const RooflinePoint& point);

}  // namespace kopt
