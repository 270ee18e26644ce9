// Compiling any kernel file for the static roofline, where it lies: the file is read in place
// (its own folder first on the include path, so its `#include "kernel.h"` finds its own), with
// the include folders, macros and flags the user gives, in the sandbox with read-only access
// to the file's folder, its parent and the include folders; the output goes to a fresh
// workspace. A failed build reports the compiler's first error, not the tail of its log.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tools/eval/context.h"
#include "tools/source/source_file.h"
#include "util/result.h"

namespace kopt {

/// True for a CUDA file (.cu, .cuh).
bool is_cuda_file(const std::filesystem::path& path);

/// The first error diagnostic of a compiler log with the lines that belong to it (the source
/// line and caret, the "In file included from" lines before it), or the log's first line.
std::string first_compiler_error(const std::string& log);

/// The PTX of a CUDA file (nvcc -ptx -O3).
Result<std::string> compile_ptx(const ExecutionContext& ctx, const SourceFile& file);

/// What clang and opt say about a C++ file: its scalar LLVM IR and the loops' scalar evolution.
struct IrOutput {
  std::string ir, scev;
};

/// Compiles a C++ (OpenMP) file as the static CPU method does (static_cpu.h) and runs opt:
/// scalar code for the roofline's work counts, or, `native`, the code as this machine's
/// compiler vectorizes it (the time prediction's counts; static_cpu.h's IrFlavor::native).
Result<IrOutput> compile_ir(const ExecutionContext& ctx, const SourceFile& file,
                            bool native = false);

}  // namespace kopt
