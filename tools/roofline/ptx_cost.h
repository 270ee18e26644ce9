// The static roofline of CUDA kernels from PTX, one estimate per kernel entry (each template
// instantiation is an entry). Operations are counted per thread the way Nsight Compute's SASS
// counters count them (FADD + FMUL + 2 x FFMA, and the integer instructions, a 64-bit
// integer operation being two), weighted by the loops' trip counts (ptx_flow.h).
// DRAM bytes follow a reuse model: an access moves the distinct bytes its address can take over
// the whole grid (element size x the extents of the thread and block indices and the trip
// counts of the loops its address depends on), shared by all threads, at most the bytes it
// executes; a loaded (indirect) address is assumed to get no reuse. That is compulsory traffic
// with caches that hold what is reused (shared-memory tiles, data sets that fit in L2, all-pairs
// loops); the estimate says so in its assumptions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/roofline/counters.h"
#include "tools/roofline/ptx_flow.h"

namespace kopt {

/// What is known about a kernel's launch and arguments.
struct PtxOptions {
  LaunchConfig launch;                      ///< Unknown extents get defaults.
  std::vector<std::optional<double>> args;  ///< Scalar parameters, by position.
  double default_trips = 64;                ///< A loop whose bound is not known.
  std::string kernel;                       ///< Only kernels of this name; empty: all.
};

/// The estimate of one kernel entry.
struct KernelEstimate {
  std::string symbol;       ///< Mangled entry name.
  std::string name;         ///< Demangled ("void k<256>(int const*, int*)").
  KernelCounters counters;  ///< For the whole launch (per-thread counts x threads).
  double threads = 0;
  double executed_bytes = 0;  ///< Global bytes loaded and stored, whole launch.
  double special_ops = 0;     ///< Transcendental and conversion instructions (not counted).
  double global_atomics = 0;  ///< Atomic and reduction instructions on global memory, whole launch.
  std::vector<PtxLoop> loops;
  int calls_not_inlined = 0;
  bool launch_assumed = true;
  std::vector<std::string> assumptions;  ///< In words: trip counts, launch, reuse.
};

/// Costs every kernel entry of `ptx` that `options.kernel` names.
std::vector<KernelEstimate> cost_ptx_kernels(const std::string& ptx, const PtxOptions& options);

/// True when `wanted` names the kernel `demangled`: its plain name ("k", "ns::k"), or with
/// template arguments ("k<256, 1024>", spaces ignored), or the mangled symbol.
bool kernel_matches(const std::string& wanted, const std::string& demangled,
                    const std::string& symbol);

}  // namespace kopt
