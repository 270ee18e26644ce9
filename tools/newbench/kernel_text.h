// The text `kopt new` writes as original.cpp: the user's file verbatim, or, for a file that is a
// whole program (a main, set-up and printing helpers beside the kernel), the file without its
// other function definitions: its includes, macros, types and the kernel itself stay as the
// user wrote them.
#pragma once

#include <string>

#include "tools/newbench/kernel_ast.h"

namespace kopt {

/// The file verbatim; with `extract`, the file without the function definitions other than
/// `kernel`'s, and `kernel` without its `static` (the driver calls it from another file).
Result<std::string> kernel_file_text(ProcessRunner& runner, const SourceFile& source,
                                     const FunctionAst& kernel, bool extract);

}  // namespace kopt
