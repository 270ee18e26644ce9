// What a kernel's body does with its parameters, read from clang's AST: every load and store
// through a pointer parameter with the range of each index (from the loop nest around it), the
// pointers used any other way, and the integers that bound loops. `kopt new` classifies
// parameters (input, output, in/out; sizes) and sizes arrays from it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/newbench/symbolic.h"
#include "util/json.h"

namespace kopt {

/// One load and/or store of an element of a pointer parameter.
struct Access {
  std::string param;
  bool load = false;
  bool store = false;
  /// The range of each index, outermost first (A[i][j]: i, j); nullopt where unknown.
  std::vector<std::optional<Interval>> indices;
  int order = 0;  ///< Position in evaluation order (a store's right-hand side comes first).
};

/// Everything the walk found.
struct AccessFacts {
  std::vector<Access> accesses;
  /// Pointer parameters used other than through a subscript or '*': passed on, copied, offset.
  std::set<std::string> escaped;
  /// Integer parameters named in a loop's condition.
  std::set<std::string> loop_bounds;
};

/// Walks the function's body (the FunctionDecl's CompoundStmt) given the names of its pointer
/// parameters and its integer parameters.
AccessFacts analyze_accesses(const Json& function_decl, const std::set<std::string>& pointers,
                             const std::set<std::string>& integers);

}  // namespace kopt
