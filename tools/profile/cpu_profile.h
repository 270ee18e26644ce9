// CPU profiles of a built benchmark: where the time of the driver's "run" mode goes, by source
// line of the kernel file and by function, with the share spent outside the kernel (harness,
// libm, the OpenMP runtime). perf samples a software clock (cpu-clock works in VMs without
// hardware counters); callgrind counts instructions where perf cannot run.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/json.h"

namespace kopt {

/// Where a sample (or an instruction) was spent.
namespace where {
inline constexpr const char* kKernel = "kernel";  ///< Code of the kernel file itself.
/// Code in the binary outside the kernel file that the kernel called (an inlined-out template
/// from a header); library code the kernel called counts as that library's place.
inline constexpr const char* kCallees = "kernel callees";
inline constexpr const char* kHarness = "harness";  ///< Driver, input filling, start-up.
inline constexpr const char* kOpenMp = "openmp runtime";
inline constexpr const char* kLibm = "libm";
inline constexpr const char* kLibc = "libc";
inline constexpr const char* kOther = "other";
}  // namespace where

/// Samples attributed to one line of the kernel file.
struct LineCount {
  int line = 0;
  uint64_t self = 0;     ///< Spent in the line's own instructions.
  uint64_t callees = 0;  ///< Spent in functions the line called (exp in libm, a library sort).
  std::map<std::string, uint64_t> callee_names;  ///< "exp (libm)" -> count.
  std::string code;                              ///< The line's text.

  uint64_t total() const { return self + callees; }
};

/// Samples whose innermost frame is one function (self time).
struct FunctionCount {
  std::string name;
  std::string object;  ///< "kernel", "bench", "libm.so.6", ...
  uint64_t self = 0;
};

/// A profile of one variant of a benchmark.
struct CpuProfile {
  std::string profiler;         ///< "perf" or "callgrind".
  std::string event;            ///< "cpu-clock" (samples) or "Ir" (instructions).
  std::string unit;             ///< "samples" or "instructions".
  std::string fallback_reason;  ///< Why perf was not used, when it was not.
  std::string raw_file;   ///< Where the profiler's own output was kept (perf.data, callgrind.out).
  std::string open_with;  ///< The command that opens it in the profiler's own viewer.
  uint64_t total = 0;
  std::map<std::string, uint64_t> by_place;  ///< where::* -> count.
  std::vector<LineCount> lines;              ///< Ranked by total, every line with a count.
  std::vector<FunctionCount> functions;      ///< Ranked by self count.
  long size = 0;                             ///< Problem size of the profiled run.
  int reps = 0;                              ///< Kernel calls in the profiled run.
  int threads = 0;                           ///< OMP_NUM_THREADS.
  double seconds = 0;                        ///< Wall time of the profiled run.
  double call_seconds = 0;  ///< Median time of one call, measured before profiling.
  int frequency = 0;        ///< perf sampling frequency (Hz).

  /// The share (0..1) of `count` in the total.
  double share(uint64_t count) const { return total ? static_cast<double>(count) / total : 0; }
};

/// Every count, for the run record ("kopt-profile/1").
Json to_json(const CpuProfile& profile);

/// The compact ranked text for the model: the top lines with their code and share, and the
/// share outside the kernel.
std::string summarize(const CpuProfile& profile, const std::string& title, int top_lines = 8);

}  // namespace kopt
