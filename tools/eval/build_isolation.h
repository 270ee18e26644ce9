// Link isolation, the trusted step between compiling a candidate and linking it: read what the
// kernel object and the driver object define and import, run the static checks, and make every
// symbol of the kernel object local except the manifest's functions, so that nothing the kernel
// defines can replace a library or harness function, whatever its kind (weak, unique, COMDAT).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/static_check_link.h"

namespace kopt {

/// What the static checks found in a compiled kernel, and the two objects' symbols.
struct KernelInspection {
  std::vector<Finding> findings;  ///< In order of what they say about intent (flags first).
  ObjectSymbols kernel;
  ObjectSymbols driver;
};

/// Inspects kernel.o (and kernel.ii for C++) against driver.o in `workspace`.
Result<KernelInspection> inspect_kernel(const ExecutionContext& ctx, const Benchmark& bench,
                                        const std::filesystem::path& workspace,
                                        const std::string& kernel_source);

/// Writes the kernel object to link, with every global symbol local but the manifest's
/// functions and what the driver also defines; returns its name in `workspace`. Fails when a
/// symbol the kernel may not define is still global afterwards.
Result<std::string> isolate_kernel(const ExecutionContext& ctx, const Benchmark& bench,
                                   const std::filesystem::path& workspace,
                                   const KernelInspection& inspection);

}  // namespace kopt
