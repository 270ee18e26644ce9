// The `static` roofline method for CUDA kernels: the kernel file is compiled to PTX (nvcc
// -ptx, never run) and each entry's instructions are counted per thread: FP32/FP64 add, mul
// and fma (= 2), integer instructions, and global loads and stores by width. Loops (backward
// branches) weight their bodies by a default trip count per nesting level; a global access
// whose address registers do not change inside a loop counts once per entry to that loop.
// Per-thread counts give the intensities directly (the thread count cancels).
#pragma once

#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/roofline/static_cpu.h"
#include "util/result.h"

namespace kopt {

/// Counts the PTX of every entry in `ptx` (weights: `default_trips` per loop level).
StaticCounts cost_ptx(const std::string& ptx, double default_trips);

/// Compiles `source` as the kernel file of a CUDA benchmark to PTX in the sandbox and costs it.
Result<StaticEstimate> estimate_ptx(const ExecutionContext& ctx, const Benchmark& bench,
                                    const std::string& source, long size);

}  // namespace kopt
