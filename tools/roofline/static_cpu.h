// The `static` roofline method for C++ and OpenMP kernels: the kernel file is compiled (never
// run) to LLVM IR with clang at -O2 as scalar code (-fno-vectorize: the work is the same,
// and scalar loops keep their trip counts readable; -fopenmp-simd: parallel regions become
// the serial loops they distribute, and a stub <omp.h> makes the code run as thread 0 of 1
// so hand-partitioned loops cover the whole range), opt prints the loops and their scalar
// evolution, and the cost model (ir_cost_model.h) turns both into operation counts and DRAM bytes
// at the manifest's time size.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/roofline/ir_cost_model.h"
#include "util/result.h"

namespace kopt {

/// The static estimate with how it was made.
struct StaticEstimate {
  StaticCounts counts;
  TripAssumptions assumptions;
  std::string toolchain;                ///< "clang++ 14 IR + opt scalar evolution", "nvcc PTX", ...
  std::vector<KernelCounters> kernels;  ///< CUDA: each kernel entry (counts sums them).
};

/// A module's functions and what opt said about their loops.
struct IrModule {
  std::vector<IrFunction> functions;
  std::map<std::string, ScevFacts> facts;
};

/// Compiles `file` in `dir` (shared with the sandbox) with `argv` (a compiler and its flags,
/// from analysis_ir_flags() or native_ir_flags()) to IR and reads its loops' scalar evolution.
Result<IrModule> compile_ir(const ExecutionContext& ctx, const std::filesystem::path& dir,
                            std::vector<std::string> argv, const std::string& file);

/// Which IR the estimate reads: scalar code (the roofline's work counts) or the code as this
/// machine's compiler would vectorize it (-O3 -march=native with the manifest's floating-point
/// flags: the time prediction's instruction counts and chains).
enum class IrFlavor { scalar, native };

/// Compiles `source` as the kernel file of `bench` in the sandbox and costs it at `size`
/// (0: the manifest's time size). `arguments` adds values of driver members the driver sets
/// itself (`tsteps_`), by name without the underscore.
Result<StaticEstimate> estimate_cpu(const ExecutionContext& ctx, const Benchmark& bench,
                                    const std::string& source, long size,
                                    const Variables& arguments = {},
                                    IrFlavor flavor = IrFlavor::scalar);

/// A stand-in <omp.h> that makes the code run as thread 0 of 1 (a hand-partitioned loop then
/// covers the whole range), put first on the include path of the analysis build.
const char* serial_omp_header();

/// The clang++ flags of the analysis build: scalar IR at -O2 with OpenMP pragmas as SIMD hints.
std::vector<std::string> analysis_ir_flags();

/// The same for IrFlavor::native: -O3 -march=native, vectorized, without runtime unrolling (trip
/// counts stay readable), floating-point contraction as GCC does it, plus the floating-point flags
/// among `manifest_flags` (-ffast-math, -fno-math-errno, ...).
std::vector<std::string> native_ir_flags(const std::vector<std::string>& manifest_flags);

/// The values the driver passes to `function`: literals, its named constants ("kDim"), and
/// the size for `n_`; nullopt for anything else.
std::vector<std::optional<double>> driver_arguments(const std::string& driver_source,
                                                    const std::string& function, double size);

/// The same, where a member named after a size (`n_`, `ni_`, `tsteps_`) passes that size.
std::vector<std::optional<double>> driver_arguments(const std::string& driver_source,
                                                    const std::string& function,
                                                    const Variables& sizes);

}  // namespace kopt
