// A PolyBench/C 4.2 tree, the user's own copy: which kernels it has (each NAME/NAME.c beside
// NAME.h, its function kernel_NAME) and the sizes a dataset gives them.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "tools/newbench/source_file.h"
#include "util/result.h"

namespace kopt {

/// One kernel of the tree.
struct PolybenchKernel {
  std::string name;  ///< "gemm", "fdtd-2d": its folder's name, and the benchmark's.
  std::filesystem::path source;
  std::string function;  ///< "kernel_fdtd_2d".
};

/// The kernels the tree lists in utilities/benchmark_list, else every folder X with X.c and
/// X.h; an Error when `root` is missing or has no utilities/polybench.h.
Result<std::vector<PolybenchKernel>> find_polybench_kernels(const std::filesystem::path& root);

/// How PolyBench builds `kernel`: utilities/ on the include path, C99 array parameters (sizes
/// are the function's parameters, not constants), the dataset's sizes ("MEDIUM").
SourceFile polybench_source(const std::filesystem::path& root, const PolybenchKernel& kernel,
                            const std::string& dataset);

/// The dataset's value of each integer parameter of `kernel`'s function: the macro of its
/// name in capitals (ni: NI, tsteps: TSTEPS), where it is a whole number.
Result<std::map<std::string, long>> dataset_values(ProcessRunner& runner, const SourceFile& source,
                                                   const std::string& function);

}  // namespace kopt
