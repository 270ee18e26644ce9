// The compilers kopt builds benchmarks with, and the command lines it uses. g++ for C++ and
// OpenMP (override with $KOPT_CXX), nvcc for CUDA (override with $KOPT_NVCC; target
// architectures from $KOPT_CUDA_ARCH, else the GPU present, else sm_80 and sm_90).
#pragma once

#include <string>
#include <vector>

#include "sandbox/process.h"
#include "tools/benchmark/benchmark.h"
#include "util/result.h"

namespace kopt {

/// One compiler and what it is for.
struct Toolchain {
  Language language = Language::cpp;
  std::string compiler;     ///< Absolute path.
  std::string fingerprint;  ///< Version line plus what else changes its code (CPU, arch).
  std::vector<std::string> arch_flags;  ///< CUDA: -gencode/-arch flags; empty for C++.

  /// Compiles `source` to `object`; kernels also produce diagnostics and remarks.
  std::vector<std::string> compile(const Benchmark& bench, const std::string& source,
                                   const std::string& object, bool is_kernel) const;
  /// Links objects into `binary`.
  std::vector<std::string> link(const Benchmark& bench, const std::vector<std::string>& objects,
                                const std::string& binary) const;
};

/// File name, inside the build workspace, of the vectorization remarks of g++.
inline constexpr const char* kRemarksFile = "remarks.txt";

/// Finds the toolchain for a benchmark's language; the Error says what is missing.
Result<Toolchain> find_toolchain(Language language, ProcessRunner& runner);

/// The CUDA architecture of the GPU present ("sm_90"), or empty when none is visible.
std::string detect_cuda_arch(ProcessRunner& runner);

/// Whether an NVIDIA GPU device node exists on this machine.
bool gpu_present();

}  // namespace kopt
