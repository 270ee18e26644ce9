// The `static` roofline method for the CUDA benchmarks of the suite: the kernel file is compiled
// to PTX in a benchmark workspace (nvcc -ptx, never run) and every kernel entry is costed by
// the PTX model (ptx_cost.h: per-thread counts weighted by trip counts, a reuse model for DRAM
// bytes); the call's counts are the sum over its kernels at the default launch.
#pragma once

#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/roofline/static_cpu.h"
#include "util/result.h"

namespace kopt {

/// Counts every kernel entry in `ptx` at the default launch (`default_trips` per unknown loop),
/// summed; `kernels`, when given, receives each entry's counters.
StaticCounts cost_ptx(const std::string& ptx, double default_trips,
                      std::vector<KernelCounters>* kernels = nullptr);

/// `source` as the kernel file of a CUDA benchmark, compiled to PTX in the sandbox (nvcc -ptx
/// -O3 for compute_80, never run).
Result<std::string> compile_benchmark_ptx(const ExecutionContext& ctx, const Benchmark& bench,
                                          const std::string& source);

/// Compiles `source` as the kernel file of a CUDA benchmark to PTX in the sandbox and costs it.
Result<StaticEstimate> estimate_ptx(const ExecutionContext& ctx, const Benchmark& bench,
                                    const std::string& source, long size);

}  // namespace kopt
