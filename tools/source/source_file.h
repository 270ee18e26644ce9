// A user's kernel file read where it lies, and how the user builds it: the one description of
// such a file for `kopt new`, `kopt import`, `kopt roofline FILE` and `kopt predict FILE`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kopt {

/// A kernel file as the user builds it.
struct SourceFile {
  std::filesystem::path path;
  std::vector<std::filesystem::path> include_dirs;  ///< -I, searched after the file's own folder.
  std::vector<std::string> defines;                 ///< -D: "NAME" or "NAME=VALUE".
  std::vector<std::string> flags;       ///< Further compiler flags, as given (roofline, predict).
  std::string gpu_arch = "compute_80";  ///< nvcc's virtual architecture for a CUDA file.
};

/// The compiler options that find the file's headers and set its macros: its own folder first,
/// then the include folders (absolute), then the -D macros. `flags` are not among them.
std::vector<std::string> include_and_define_options(const SourceFile& source);

}  // namespace kopt
