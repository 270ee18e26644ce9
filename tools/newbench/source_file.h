// A user's source file and how clang reads it: the file's folder and any further include
// folders on the include path, the macros it is built with. The one home of the clang command
// kopt new runs on a user's file (its AST, its own headers, its macros).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "tools/benchmark/benchmark.h"
#include "tools/source/source_file.h"
#include "util/result.h"

namespace kopt {

/// The file's language from its extension: C for .c, C++ otherwise.
Dialect dialect_of(const std::filesystem::path& file);

/// Runs clang (clang++ for C++) on the file with its include path and macros, OpenMP pragmas
/// understood and warnings off, adding `action` ("-fsyntax-only", "-MM", ...); returns what it
/// printed. Errors say in one line that clang is missing or the file does not compile.
Result<std::string> run_clang(ProcessRunner& runner, const SourceFile& source,
                              const std::vector<std::string>& action);

/// The headers the file includes that are not system headers (clang -MM): its own, found in its
/// folder or the include folders.
Result<std::vector<std::filesystem::path>> local_headers(ProcessRunner& runner,
                                                         const SourceFile& source);

/// Every macro defined once the file is preprocessed (clang -E -dM): name to replacement text.
Result<std::map<std::string, std::string>> defined_macros(ProcessRunner& runner,
                                                          const SourceFile& source);

}  // namespace kopt
