// The options that name a kernel file outside the suite and what is known of its call, shared
// by `kopt roofline FILE` and `kopt predict FILE`: -I, -D, --flags, --kernel, --args, --launch.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "agent/cli/command.h"
#include "tools/roofline/ptx_flow.h"
#include "tools/roofline/source_compile.h"

namespace kopt::cli {

/// Whether `named` is a kernel source file by its extension (.cu, .cuh, .cpp, .cc, .cxx, .c); a
/// UsageError when it has one but no such file exists.
bool names_source_file(const std::filesystem::path& named);

/// The file named by the positional `positional` with the -I, -D and --flags given.
SourceFile source_file(const Args& args, const std::string& positional);

/// "1000,_,0.5": the kernel's scalar arguments by position, "_" (or nothing) where unknown.
std::vector<std::optional<double>> parse_kernel_args(const std::string& text);

/// "4,256", "64x32,16x16" or "8x8x2,4x4x4": GRID,BLOCK with x, y, z extents.
LaunchConfig parse_launch(const std::string& text);

/// The help of -I, -D, --flags, --kernel and --args (each prefixed "FILE: ").
std::vector<OptionSpec> source_file_options();

}  // namespace kopt::cli
