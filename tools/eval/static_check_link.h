// The static checks of what a kernel object defines, imports and runs outside its calls, and of
// the flags contract, with the symbol tables that link isolation (build_isolation.h) works on.
// They give the early, readable reason; the guarantees are built in elsewhere (the kernel's
// other symbols are made local and the driver is linked first; the driver runs the kernel under
// a seccomp filter, see benchmarks/common/seccomp_filter.h).
#pragma once

#include <string>
#include <vector>

#include "tools/eval/static_check.h"

namespace kopt {

/// Symbols of an object file, read from `nm -P` output.
struct ObjectSymbols {
  std::vector<std::string> imports;  ///< Undefined, strong or weak (U, w, v).
  struct Definition {
    std::string name;
    char kind;  ///< nm's letter: T D B R G S C W V u i (global), lowercase when local.
  };
  std::vector<Definition> definitions;

  /// True when `name` (version suffix ignored) is among the imports.
  bool imports_symbol(const std::string& name) const;
  /// True when `name` is defined with global binding of any kind.
  bool defines_globally(const std::string& name) const;
};

/// Parses `nm -P` output.
ObjectSymbols parse_nm(const std::string& nm_output);

/// Checks the kernel object's global definitions of every kind (strong, weak, unique,
/// indirect) against `allowed` (the manifest's functions, by unqualified name) and against what
/// the driver object imports, then its imports (weak ones included) against the deny list.
std::vector<Finding> check_symbols(const ObjectSymbols& kernel,
                                   const std::vector<std::string>& allowed,
                                   const ObjectSymbols& driver);

/// The kernel's global definitions that must become local before linking: all but the
/// manifest's functions and those the driver also defines (the driver, linked first, keeps
/// its own copy of a shared inline function or template instance).
std::vector<std::string> symbols_to_localize(const ObjectSymbols& kernel,
                                             const std::vector<std::string>& allowed,
                                             const ObjectSymbols& driver);

/// Checks `readelf -SW` output for sections that run code before main or after the measured
/// window (.init_array, .ctors, .preinit_array, .fini_array, .dtors, .init, .fini).
std::vector<Finding> check_sections(const std::string& section_headers);

/// Checks the candidate's source and its preprocessed text (`g++ -E`) for pragmas and
/// attributes that change optimization or floating-point semantics (`#pragma GCC optimize`,
/// `__attribute__((optimize))`, `#pragma STDC FP_CONTRACT`, `#pragma clang fp`, ...), except
/// those `allowed` names (the manifest's "allow_pragmas", e.g. "GCC target").
std::vector<Finding> check_flags(const std::string& source, const std::string& preprocessed,
                                 const std::vector<std::string>& allowed);

}  // namespace kopt
