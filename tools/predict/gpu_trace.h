// The launches one call of a CUDA benchmark makes, found without a GPU: the driver and the
// kernel file are linked against kopt's stand-in for the CUDA runtime (cuda_launch_trace.cc)
// and run once in the sandbox in the driver's `run` mode at the size asked; the stand-in
// prints each launch's grid, block and scalar arguments. The GPU's figures the host code may
// ask for (SM count, clock, L2) come from the hardware table; occupancy queries are answered
// from the block size alone (2048 threads and 32 blocks an SM), which the notes say.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/machine/hardware.h"
#include "tools/roofline/ptx_flow.h"
#include "tools/roofline/ptx_module.h"
#include "util/result.h"

namespace kopt {

/// One launch of a kernel of the kernel file.
struct TracedLaunch {
  std::string symbol;  ///< The PTX entry's (mangled) name.
  LaunchConfig launch;
  std::vector<std::optional<double>> args;  ///< Scalars by position; pointers unknown.
};

/// kopt_trace_config.h for the tracer: `gpu`'s figures and each entry's parameter sizes.
std::string trace_config(const std::vector<PtxFunction>& module, const HardwareSpec& gpu);

/// The value of a parameter of PTX type `type` (".u64", ".f32", ...) from its bytes in hex
/// (little-endian); nothing for "p" (a device pointer) or an aggregate.
std::optional<double> decode_param(const std::string& hex, const std::string& type);

/// The launches of kernels of `module` in the tracer's output, in order (the harness's own
/// launches and anything else skipped).
std::vector<TracedLaunch> parse_launch_trace(const std::string& output,
                                             const std::vector<PtxFunction>& module);

/// Builds the tracer for `source` as `bench`'s kernel file and runs one call at `size` (0: the
/// time size). Cached by the sources, the size and the GPU's figures.
Result<std::vector<TracedLaunch>> trace_launches(const ExecutionContext& ctx,
                                                 const Benchmark& bench, const std::string& source,
                                                 long size, const std::string& ptx,
                                                 const HardwareSpec& gpu);

}  // namespace kopt
