// Where kopt finds its own files.
#pragma once

#include <filesystem>

namespace kopt {

/// The folder holding kopt's own files (benchmarks/, prompts/, scripts/): $KOPT_HOME, else the
/// source tree kopt was built from.
std::filesystem::path kopt_home();

}  // namespace kopt
